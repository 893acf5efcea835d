import { createECDH } from 'node:crypto';
import {
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  hashMessage,
  keccak256,
  maxUint256,
  numberToHex,
  stringToHex,
} from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Red-team tuning tokens, third round (RedTeamThree.sol): a V2 token minted on migration from a
// legacy token whose owner still mints, Merkle airdrop claims minted against a root another
// contract publishes, a two-step ownership whose renounce forgets the nominee, a permit that also
// takes a recovery guardian's signature (a key, not a wallet), an operator check with its mapping
// keys swapped, "relayed sells" that take a router approval as consent, a sell cap equal to a
// reserve wallet's balance, and a points loop whose bounded gas budget exceeds any block; and two
// honest tokens: an ERC-2771 trusted forwarder, and a clawback of unvested team grants in escrow.

const ONE_TOKEN = 10n ** 18n;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

/** The recovery guardian's key: the insider holds it; only its address is on chain. */
const GUARDIAN_KEY = keccak256(stringToHex('vigil.corpus.rt3.recovery-guardian'));
const GUARDIAN = privateKeyToAddress(GUARDIAN_KEY);

// secp256k1, signed synchronously (a proof's arguments are computed synchronously): the curve
// point k·G comes from node:crypto's ECDH, the rest is arithmetic modulo the group order.
const ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const modPow = (base: bigint, exponent: bigint, modulus: bigint) => {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus)
    if (e & 1n) result = (result * b) % modulus;
  return result;
};
function signHash(hash: Hex, privateKey: Hex): { v: number; r: Hex; s: Hex } {
  const k = (BigInt(keccak256(concat([privateKey, hash]))) % (ORDER - 1n)) + 1n;
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(numberToHex(k, { size: 32 }).slice(2), 'hex'));
  const point = ecdh.getPublicKey();
  const r = BigInt(`0x${point.subarray(1, 33).toString('hex')}`) % ORDER;
  let parity = (point[64] ?? 0) & 1;
  let s = (modPow(k, ORDER - 2n, ORDER) * (BigInt(hash) + r * BigInt(privateKey))) % ORDER;
  if (s > ORDER / 2n) {
    s = ORDER - s;
    parity ^= 1;
  }
  return { v: 27 + parity, r: numberToHex(r, { size: 32 }), s: numberToHex(s, { size: 32 }) };
}

const PERMIT_TYPEHASH = keccak256(
  stringToHex('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)'),
);
const RECOVERED = 2_000_000n * ONE_TOKEN;
/** The guardian's permit for the first trader's tokens (its nonce is still zero), to the recovery wallet. */
const guardianPermit = (c: CorpusLiveContext) => {
  const structHash = keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'address' },
        { type: 'address' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint256' },
      ],
      [PERMIT_TYPEHASH, holder(c), c.wallet('rt3.recovery'), RECOVERED, 0n, maxUint256],
    ),
  );
  const digest = hashMessage({ raw: keccak256(encodePacked(['address', 'bytes32'], [c.token, structHash])) });
  const { v, r, s } = signHash(digest, GUARDIAN_KEY);
  return [holder(c), c.wallet('rt3.recovery'), RECOVERED, maxUint256, v, r, s] as const;
};

/** A one-leaf Merkle tree: the root is the leaf (OpenZeppelin's double-hashed account and amount). */
const DROP = 3_000_000_000n * ONE_TOKEN;
const dropRoot = (c: CorpusLiveContext) =>
  keccak256(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [c.deployer, DROP])));

export const REDTEAM3_TOKENS: Record<string, CorpusTokenSpec> = {
  t_rt3_legacy_migration: {
    contract: 'TnRt3MigratedToken',
    name: 'Nova V2',
    symbol: 'NOVA',
    helpers: [
      {
        name: 'legacy',
        contract: 'TnRt3LegacyToken',
        args: (c) => ['Nova', 'NOVA1', c.supply / 10n, c.wallet('rt3.v1-holders')],
      },
    ],
    args: (c) => ['Nova V2', 'NOVA', c.supply, c.helpers.legacy],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "migrate(uint256) burns legacy (V1) tokens to the dead address and mints V2 one for one, with no cap; the V1 token is a separate contract whose owner (the deployer, who holds no V1) may still mint(address,uint256) any amount of V1, then migrate it; V2's owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:legacy',
            signature: 'function mint(address to, uint256 amount)',
            args: (c) => [c.deployer, c.supply * 4n],
          },
          {
            to: 'helper:legacy',
            signature: 'function approve(address spender, uint256 value) returns (bool)',
            args: (c) => [c.token, c.supply * 4n],
          },
          { signature: 'function migrate(uint256 amount)', args: (c) => [c.supply * 4n] },
        ],
      },
    },
  },
  t_rt3_merkle_drop: {
    contract: 'TnRt3MerkleDropToken',
    name: 'Drop Season',
    symbol: 'DRSN',
    helpers: [{ name: 'registry', contract: 'TnRt3DropRegistry' }],
    args: (c) => ['Drop Season', 'DRSN', c.supply, c.helpers.registry],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "claim(uint256,bytes32[]) mints airdrop claims against a Merkle root read from a separate registry contract, with no cap on the total; the registry's publisher (the deployer, an immutable there) may publish(address,bytes32) any root, such as a one-leaf tree paying itself; the token's owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:registry',
            signature: 'function publish(address token, bytes32 root)',
            args: (c) => [c.token, dropRoot(c)],
          },
          { signature: 'function claim(uint256 amount, bytes32[] proof)', args: () => [DROP, []] },
        ],
      },
    },
  },
  t_rt3_stale_nominee: {
    contract: 'TnRt3StewardToken',
    name: 'Steward Emissions',
    symbol: 'STEM',
    args: (c) => ['Steward Emissions', 'STEM', c.supply],
    market: 'healthy',
    launch: [
      { signature: 'function transferOwnership(address nominee)', args: (c) => [c.wallet('rt3.heir')] },
      renounce,
    ],
    pattern:
      'a hand-rolled two-step ownership (no pendingOwner getter): the deployer nominates a successor with transferOwnership(address), then renounceOwnership() zeroes owner() but not the private nominee, who may acceptOwnership() at any time and mintEmission(address,uint256) any amount',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function acceptOwnership()', from: 'rt3.heir' },
          {
            signature: 'function mintEmission(address to, uint256 amount)',
            args: (c) => [c.wallet('rt3.heir'), c.supply * 3n],
            from: 'rt3.heir',
          },
        ],
      },
    },
  },
  t_rt3_recovery_permit: {
    contract: 'TnRt3RecoveryPermitToken',
    name: 'Safe Recover',
    symbol: 'SRCV',
    args: (c) => ['Safe Recover', 'SRCV', c.supply, GUARDIAN],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "an EIP-2612 permit whose signature, when not the holder's, may be a \"recovery guardian's\" eth_sign over the token and the permit's hash: the guardian is an address whose key the insider holds, so it approves any holder's tokens to any spender, who then transferFrom()s them; the owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature:
              'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
            args: guardianPermit,
            from: 'rt3.recovery',
          },
          {
            signature: 'function transferFrom(address from, address to, uint256 value) returns (bool)',
            args: (c) => [holder(c), c.wallet('rt3.recovery'), RECOVERED],
            from: 'rt3.recovery',
          },
        ],
      },
    },
  },
  t_rt3_operator_mixup: {
    contract: 'TnRt3OperatorToken',
    name: 'Operator Hub',
    symbol: 'OPHB',
    args: (c) => ['Operator Hub', 'OPHB', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "ERC-777-style operators: setOperator(address,bool) and a correct isOperatorFor view, but operatorTransfer(address,address,uint256) reads the mapping with its keys swapped, so a caller who names a holder as its own operator may move all of that holder's tokens; the owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function setOperator(address operator, bool approved)',
            args: (c) => [holder(c), true],
          },
          {
            signature: 'function operatorTransfer(address from, address to, uint256 amount)',
            args: (c) => [holder(c), c.deployer, 2_000_000n * ONE_TOKEN],
          },
        ],
      },
    },
  },
  t_rt3_relay_sell: {
    contract: 'TnRt3RelaySellToken',
    name: 'Gasless Exit',
    symbol: 'GEXT',
    args: (c) => ['Gasless Exit', 'GEXT', c.supply, c.router, c.wallet('rt3.relayer')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'relaySell(address,uint256), for a relayer kept in an immutable, spends a holder\'s allowance to the router (which every seller gave) and moves the tokens to the relayer\'s own wallet, "to sell them and forward the proceeds"; holders who never approved the router are safe; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function relaySell(address holder, uint256 amount)',
            args: (c) => [holder(c), 2_000_000n * ONE_TOKEN],
            from: 'rt3.relayer',
          },
        ],
      },
    },
  },
  t_rt3_reserve_cover: {
    contract: 'TnRt3ReserveCoverToken',
    name: 'Covered Sell',
    symbol: 'CVSL',
    args: (c) => ['Covered Sell', 'CVSL', c.supply, c.router, c.wallet('rt3.reserve')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'no sell may exceed the balance of a "stability reserve" wallet (minted 5 % at deploy, an immutable); no setter exists and the owner renounced, but the reserve moving its tokens away with an ordinary transfer() makes every other sell revert',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function transfer(address to, uint256 value) returns (bool)',
            args: (c) => [c.deployer, c.supply / 20n],
            from: 'rt3.reserve',
          },
        ],
      },
    },
  },
  t_rt3_gas_budget: {
    contract: 'TnRt3PointsToken',
    name: 'Loyalty Points',
    symbol: 'LYPT',
    args: (c) => ['Loyalty Points', 'LYPT', c.supply, c.router],
    market: 'healthy',
    pattern:
      "every sell spends a gas budget crediting loyalty points to holders round-robin; setProcessingGas(uint256) looks bounded (50,000 to 60,000,000) but the top of the range exceeds any block, so every sell but the owner's runs out of gas; owner kept",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function setProcessingGas(uint256 gas)', args: () => [50_000_000n] }],
      },
    },
  },
  t_rt3_gasless: {
    contract: 'TnRt3GaslessToken',
    name: 'Gasless',
    symbol: 'GSLS',
    helpers: [{ name: 'forwarder', contract: 'TnRt3Forwarder' }],
    args: (c) => ['Gasless', 'GSLS', c.supply, c.helpers.forwarder],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "ERC-2771 meta-transactions: _msgSender() is read from the calldata's last 20 bytes when a trusted forwarder calls, but the forwarder is OpenZeppelin's, immutable and ownerless, and relays only requests signed by their sender; the owner renounced",
    labels: benign('benign_unusual'),
  },
  t_rt3_team_escrow: {
    contract: 'TnRt3TeamEscrowToken',
    name: 'Team Escrow',
    symbol: 'TESC',
    args: (c) => ['Team Escrow', 'TESC', c.supply],
    market: 'healthy',
    launch: [
      {
        signature: 'function grant(address member, uint128 amount, uint64 duration)',
        args: (c) => [c.wallet('rt3.team'), 5_000_000n * ONE_TOKEN, 365n * 86_400n],
      },
    ],
    pattern:
      "clawback(address) lets the owner take back a team member's tokens, but only the unvested part of a grant the token contract itself holds in escrow: a wallet's own balance is never touched; owner kept",
    labels: benign('benign_unusual'),
  },
};
