import { createECDH } from 'node:crypto';
import {
  concat,
  encodeFunctionData,
  type Hex,
  hashTypedData,
  keccak256,
  numberToHex,
  parseAbiItem,
  stringToHex,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Red-team tuning tokens, fifth round (RedTeamFive.sol), written blind to the scanner: a bridge
// mint open to any contract whose runtime code hash is the bridge adapter's (no adapter address
// stored anywhere); a supply reconciliation that mints or burns for whoever reveals the next key
// of a hash chain (no wallet authorised at all); an ERC-3156 flash mint whose repayment is booked
// in a packed uint128, so a loan of 2^128 is repaid with nothing; an infinite "Permit2" allowance
// granted on a three-byte address prefix, spent by a ground vanity wallet; an ERC-2771 relay
// beside a hand-rolled delegatecall multicall, whose items' calldata suffix spoofs any sender; a
// lost-wallet recovery held by whoever owns a pass NFT in another contract, moved to a fresh wallet
// at launch; an anti-bot block keyed on code hashes, where the hash every wallet has stops every
// sell; fees an off-chain signer's EIP-712 signature sets, up to the whole trade; and three honest
// tokens: Permit2's exact address trusted, OpenZeppelin's flash mint, and a treasure chest that
// hash-chain keys open from the token's own balance.

const ONE_TOKEN = 10n ** 18n;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;
const TAKEN = 2_000_000n * ONE_TOKEN;

/** A hash chain: keys[0] is the seed, keys[i] = keccak256(keys[i - 1]); the contract holds the last. */
function hashChain(label: string, length: number): Hex[] {
  const keys: Hex[] = [keccak256(stringToHex(label))];
  for (let i = 1; i <= length; i++) keys.push(keccak256(keys[i - 1] as Hex));
  return keys;
}
const RECONCILE_KEYS = hashChain('vigil.corpus.rt5.reconcile-seed', 64);
const TREASURE_KEYS = hashChain('vigil.corpus.rt5.treasure-seed', 64);
/** The lock a hash-chain contract starts with, and the first key that opens it. */
const anchorOf = (keys: Hex[]) => keys[keys.length - 1] as Hex;
const firstKeyOf = (keys: Hex[]) => keys[keys.length - 2] as Hex;

/** A wallet whose address starts with three zero bytes (0x000000b7…), ground from its label. */
const VANITY = 'rt5.router.9391564';

const bridgeMint = parseAbiItem('function bridgeMint(address to, uint256 amount)');
const transfer = parseAbiItem('function transfer(address to, uint256 value) returns (bool)');
const multicall = parseAbiItem('function multicall(bytes[] data) returns (bytes[] results)');

/** A multicall whose one item is a transfer to the caller with the first trader's address appended. */
const spoofedMulticall = (c: CorpusLiveContext) =>
  encodeFunctionData({
    abi: [multicall],
    args: [[concat([encodeFunctionData({ abi: [transfer], args: [c.deployer, TAKEN] }), holder(c)])]],
  });

/** The governance signer's key: the insider holds it; only its address is on chain. */
const GOVERNANCE_KEY = keccak256(stringToHex('vigil.corpus.rt5.governance-signer'));
const GOVERNANCE = privateKeyToAddress(GOVERNANCE_KEY);

// secp256k1, signed synchronously (a proof's arguments are computed synchronously): the curve
// point k·G comes from node:crypto's ECDH, the rest is arithmetic modulo the group order.
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const modPow = (base: bigint, exponent: bigint, modulus: bigint) => {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus)
    if (e & 1n) result = (result * b) % modulus;
  return result;
};
/** A 65-byte r ‖ s ‖ v signature of a digest (low s, as OpenZeppelin's ECDSA requires). */
function signDigest(digest: Hex, privateKey: Hex): Hex {
  const k = (BigInt(keccak256(concat([privateKey, digest]))) % (ORDER - 1n)) + 1n;
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(numberToHex(k, { size: 32 }).slice(2), 'hex'));
  const point = ecdh.getPublicKey();
  const r = BigInt(`0x${point.subarray(1, 33).toString('hex')}`) % ORDER;
  let parity = (point[64] ?? 0) & 1;
  let s = (modPow(k, ORDER - 2n, ORDER) * (BigInt(digest) + r * BigInt(privateKey))) % ORDER;
  if (s > ORDER / 2n) {
    s = ORDER - s;
    parity ^= 1;
  }
  return concat([
    numberToHex(r, { size: 32 }),
    numberToHex(s, { size: 32 }),
    numberToHex(27 + parity, { size: 1 }),
  ]);
}

const SIGNED_FEE_NAME = 'Council Fee';
const TRAP_SELL_BPS = 9_900;
/** The governance signer's fee update (the first: nonce zero), for the token deployed. */
const signedFees = (c: CorpusLiveContext) => {
  const digest = hashTypedData({
    domain: { name: SIGNED_FEE_NAME, verifyingContract: c.token },
    types: {
      Fees: [
        { name: 'buyBps', type: 'uint16' },
        { name: 'sellBps', type: 'uint16' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    primaryType: 'Fees',
    message: { buyBps: 100, sellBps: TRAP_SELL_BPS, nonce: 0n },
  });
  return [100, TRAP_SELL_BPS, signDigest(digest, GOVERNANCE_KEY)] as const;
};

/** keccak256 of empty code: the code hash of every wallet that exists and has no code. */
const EMPTY_CODE_HASH = keccak256('0x');

export const REDTEAM5_TOKENS: Record<string, CorpusTokenSpec> = {
  t_rt5_codehash_bridge: {
    contract: 'TnRt5CanonicalBridgeToken',
    name: 'Canonical Bridge',
    symbol: 'CNBR',
    helpers: [{ name: 'adapter', contract: 'TnRt5BridgeAdapter' }],
    args: (c) => ['Canonical Bridge', 'CNBR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "bridgeMint(address,uint256) mints any amount for any caller whose runtime code hash equals a bridge adapter's (computed in the constructor from the adapter's code, \"so the bridge can redeploy without a token upgrade\"); no adapter address is stored or passed anywhere, and the insider's copy of the adapter, a relay for its operator (the deployer, in storage), delivers the mint; the owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:adapter',
            signature: 'function deliver(address target, bytes message) returns (bytes)',
            args: (c) => [
              c.token,
              encodeFunctionData({ abi: [bridgeMint], args: [c.deployer, c.supply * 5n] }),
            ],
          },
        ],
      },
    },
  },
  t_rt5_key_chain: {
    contract: 'TnRt5KeyChainToken',
    name: 'Ledger Sync',
    symbol: 'LSYN',
    args: (c) => ['Ledger Sync', 'LSYN', c.supply, anchorOf(RECONCILE_KEYS)],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'reconcile(bytes32,address,int256) mints (delta above zero) to or burns (below zero) from any account for whoever presents the preimage of the stored lock, which then becomes the lock: one-time keys of a hash chain whose seed the insider holds; no wallet is authorised and no key on chain opens the next call; the owner renounced',
    labels: scam('mint', 'leak'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function reconcile(bytes32 key, address account, int256 delta)',
            args: (c) => [firstKeyOf(RECONCILE_KEYS), c.deployer, c.supply * 5n],
          },
        ],
      },
      leak: {
        steps: [
          {
            signature: 'function reconcile(bytes32 key, address account, int256 delta)',
            args: (c) => [firstKeyOf(RECONCILE_KEYS), holder(c), -TAKEN],
          },
        ],
      },
    },
  },
  t_rt5_packed_flash: {
    contract: 'TnRt5PackedFlashToken',
    name: 'Flash Lean',
    symbol: 'FLNE',
    helpers: [{ name: 'borrower', contract: 'TnRt5FlashBorrower' }],
    args: (c) => ['Flash Lean', 'FLNE', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'a hand-rolled ERC-3156 flash mint books the principal in a packed uint128 "to save a slot" and computes the fee and the repayment from it: a loan of 2^128 is repaid with nothing, and the borrower contract (the insider\'s, which repays whatever it is asked) keeps it; guessed arguments fail, since an ordinary wallet cannot answer the callback; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature:
              'function flashLoan(address receiver, address token, uint256 amount, bytes data) returns (bool)',
            args: (c) => [c.helpers.borrower, c.token, 2n ** 128n, '0x'],
          },
        ],
      },
    },
  },
  t_rt5_vanity_allowance: {
    contract: 'TnRt5VanityAllowanceToken',
    name: 'Approve Less',
    symbol: 'APRL',
    args: (c) => ['Approve Less', 'APRL', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'allowance() is infinite for "Permit2 and vanity-address routers", but the spender is compared with Permit2 on its first three bytes only: any wallet whose address starts with 0x000000 (the insider ground one) transferFrom()s any holder\'s tokens with no approval; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function transferFrom(address from, address to, uint256 value) returns (bool)',
            args: (c) => [holder(c), c.wallet(VANITY), TAKEN],
            from: VANITY,
          },
        ],
      },
    },
  },
  t_rt5_relay_multicall: {
    contract: 'TnRt5RelayedToken',
    name: 'Relay Native',
    symbol: 'RLYN',
    helpers: [{ name: 'relay', contract: 'TnRt5Relay' }],
    args: (c) => ['Relay Native', 'RLYN', c.supply, c.helpers.relay],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "ERC-2771 with an open, ownerless relay (it appends the real caller) as the trusted forwarder, beside a hand-rolled multicall(bytes[]) that delegatecalls each item unchanged: through the relay, msg.sender inside the multicall is still the relay, so an item's own last 20 bytes are taken as its sender, and a transfer item with a holder's address appended moves that holder's tokens; anyone can do it; the owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            to: 'helper:relay',
            signature: 'function forward(address target, bytes data) returns (bytes)',
            args: (c) => [c.token, spoofedMulticall(c)],
          },
        ],
      },
    },
  },
  t_rt5_guardian_pass: {
    contract: 'TnRt5GuardedRecoveryToken',
    name: 'Safe Harbor',
    symbol: 'SHBR',
    helpers: [{ name: 'pass', contract: 'TnRt5GuardianPass' }],
    args: (c) => ['Safe Harbor', 'SHBR', c.supply, c.helpers.pass],
    market: 'healthy',
    launch: [
      {
        to: 'helper:pass',
        signature: 'function transferFrom(address from, address to, uint256 tokenId)',
        args: (c) => [c.deployer, c.wallet('rt5.guardian'), 1n],
      },
      renounce,
    ],
    pattern:
      'recoverWallet(address,address,uint256), "lost-wallet recovery after an identity check", moves any holder\'s tokens for whoever owns pass #1 of a separate NFT contract (the token stores only the collection, and calls its ownerOf); the deployer moved the pass to a fresh wallet with an ordinary NFT transfer at launch, and the token\'s owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function recoverWallet(address lost, address replacement, uint256 amount)',
            args: (c) => [holder(c), c.wallet('rt5.guardian'), TAKEN],
            from: 'rt5.guardian',
          },
        ],
      },
    },
  },
  t_rt5_empty_codehash: {
    contract: 'TnRt5CodeGuardToken',
    name: 'Bot Proof',
    symbol: 'BTPF',
    args: (c) => ['Bot Proof', 'BTPF', c.supply, c.router],
    market: 'healthy',
    pattern:
      'an anti-MEV block on sellers\' runtime code hashes, "so redeployed bots stay blocked while wallets, which have no code, never are" (setCodeBlocked(bytes32,bool) even refuses the zero hash); but every existing wallet has the code hash keccak256(""), and blocking it stops every ordinary holder\'s sell; owner kept',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function setCodeBlocked(bytes32 codeHash, bool blocked)',
            args: () => [EMPTY_CODE_HASH, true],
          },
        ],
      },
    },
  },
  t_rt5_signed_fees: {
    contract: 'TnRt5SignedFeeToken',
    name: SIGNED_FEE_NAME,
    symbol: 'CNCL',
    args: (c) => [SIGNED_FEE_NAME, 'CNCL', c.supply, c.router, GOVERNANCE, c.wallet('rt5.treasury')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      '"gasless governance": setFees(uint16,uint16,bytes) takes buy and sell fees up to 100 % from anyone who relays an EIP-712 signature of a governance signer (a key held off chain, its address an immutable); no wallet may set anything and the owner renounced, but the insider holding the key signs a 99 % sell fee',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { signature: 'function setFees(uint16 buyBps, uint16 sellBps, bytes signature)', args: signedFees },
        ],
      },
    },
  },
  t_rt5_permit2_default: {
    contract: 'TnRt5Permit2Token',
    name: 'One Click',
    symbol: 'ONCK',
    args: (c) => ['One Click', 'ONCK', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "allowance() is infinite for Permit2's full address (a constant); Permit2 moves tokens only with the holder's own signature, and no other spender gets anything without an approval; the owner renounced",
    labels: benign('benign_unusual'),
  },
  t_rt5_flash_mint: {
    contract: 'TnRt5FlashMintToken',
    name: 'Flash Ready',
    symbol: 'FRDY',
    args: (c) => ['Flash Ready', 'FRDY', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "OpenZeppelin's ERC-3156 flash mint: anyone may mint any amount, which the same transaction burns back with a 0.05 % fee (burned too), so the supply never rises; the owner renounced",
    labels: benign('benign_unusual'),
  },
  t_rt5_treasure_chain: {
    contract: 'TnRt5TreasureToken',
    name: 'Treasure Hunt',
    symbol: 'TRHT',
    args: (c) => ['Treasure Hunt', 'TRHT', c.supply, anchorOf(TREASURE_KEYS)],
    market: 'healthy',
    pattern:
      "a treasure hunt: 1 % above the supply sits in the token contract, and each key of a hash chain (the preimage of the last key found, given out as riddle answers) opens a chest of 1 M tokens from that balance for whoever presents it first; nothing is minted after deploy, no holder's balance is touched, and there is no owner",
    labels: benign('benign_unusual'),
  },
};
