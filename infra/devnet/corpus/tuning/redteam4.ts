import {
  encodeAbiParameters,
  encodeFunctionData,
  keccak256,
  maxUint256,
  parseAbiItem,
  zeroAddress,
  zeroHash,
} from 'viem';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Red-team tuning tokens, fourth round (RedTeamFour.sol): a mint only the token itself may call,
// reached through a keeper's batch of raw calldata; a "gas-lean" permit whose bare ecrecover lets
// the zero address approve, and a transferFrom that mints from it; a batch transfer whose
// unchecked product overflows to zero; a V2 migration that moves any balance, open only from two
// to thirty days after deploy; a forced transfer for a compliance agent a name registry resolves
// from a node computed in code; a flat sell fee in whole tokens; a marketing wallet the router,
// which refuses ETH, passes the sanity checks for; a sell cooldown any holder arms on another with
// one base unit; and three honest tokens: the self-call mint behind a two-day queue, a checked
// batch transfer, and a fixed fee whose recipient a registry resolves.

const ONE_TOKEN = 10n ** 18n;
const DAY = 86_400;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

const distributeIncentives = parseAbiItem('function distributeIncentives(address to, uint256 amount)');
/** The keeper's batch: one call, the token's own mint, as raw calldata. */
const incentiveBatch = (c: CorpusLiveContext) => [
  [encodeFunctionData({ abi: [distributeIncentives], args: [c.deployer, c.supply * 5n] })],
];

/** A registry node as the tokens compute it: keccak256(abi.encode(token, name)). */
const nodeOf = (token: `0x${string}`, name: string) =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'string' }], [token, name]));

const LEAN_MINT = 3_000_000_000n * ONE_TOKEN;
/** 2^255 to two receivers: the unchecked product wraps to zero. */
const WRAP = 2n ** 255n;

export const REDTEAM4_TOKENS: Record<string, CorpusTokenSpec> = {
  t_rt4_self_call: {
    contract: 'TnRt4KeeperBatchToken',
    name: 'Keeper Ops',
    symbol: 'KOPS',
    args: (c) => ['Keeper Ops', 'KOPS', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'distributeIncentives(address,uint256) mints any amount but accepts only the token itself as caller (onlySelf); batch(bytes[]), for a keeper kept in an immutable (the deployer), has the token call itself with raw calldata, so the keeper mints by batching that call; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function batch(bytes[] calls) returns (bytes[])', args: incentiveBatch }],
      },
    },
  },
  t_rt4_zero_permit: {
    contract: 'TnRt4LeanPermitToken',
    name: 'Lean Permit',
    symbol: 'LEAN',
    args: (c) => ['Lean Permit', 'LEAN', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'a "gas-lean" permit checks ecrecover(...) == owner with no zero check, so any invalid signature (r = s = 0) is the zero address\'s and approves any spender for it; the hand-rolled transferFrom writes balances through _update, which mints when the sender is the zero address: transferFrom(0x0, to, amount) after that permit mints any amount; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature:
              'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
            args: (c) => [zeroAddress, c.deployer, LEAN_MINT, maxUint256, 27, zeroHash, zeroHash],
          },
          {
            signature: 'function transferFrom(address from, address to, uint256 value) returns (bool)',
            args: (c) => [zeroAddress, c.deployer, LEAN_MINT],
          },
        ],
      },
    },
  },
  t_rt4_batch_overflow: {
    contract: 'TnRt4BatchAirdropToken',
    name: 'Batch Drop',
    symbol: 'BTDR',
    args: (c) => ['Batch Drop', 'BTDR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'a hand-rolled token whose batchTransfer(address[],uint256) debits receivers.length * value computed unchecked "to save gas": 2^255 to two receivers wraps the debit to zero and credits each 2^255 out of nothing (totalSupply unchanged); anyone can call it; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function batchTransfer(address[] receivers, uint256 value) returns (bool)',
            args: (c) => [[c.deployer, c.wallet('rt4.sidekick')], WRAP],
          },
        ],
      },
    },
  },
  t_rt4_migration_window: {
    contract: 'TnRt4MigrationWindowToken',
    name: 'Bridge Ready',
    symbol: 'BRDY',
    args: (c) => ['Bridge Ready', 'BRDY', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'migrateAccount(address) moves any holder\'s whole balance to the migrator (the deployer, an immutable) "for the V2 bridge", but only inside a window from two to thirty days after deployment (bounds in private immutables): refused at launch, a day later and a year later; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        afterSeconds: 3 * DAY,
        steps: [{ signature: 'function migrateAccount(address account)', args: (c) => [holder(c)] }],
      },
    },
  },
  t_rt4_compliance_registry: {
    contract: 'TnRt4ComplianceToken',
    name: 'Regulated Share',
    symbol: 'RGSH',
    helpers: [{ name: 'registry', contract: 'TnRt4NameRegistry' }],
    args: (c) => ['Regulated Share', 'RGSH', c.supply, c.helpers.registry],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "forceTransfer(address,address,uint256) moves any holder's tokens for a compliance agent, whom a separate name registry resolves for a node the token computes from its own address (no constant in code); nobody is appointed at launch, but the registry's admin (the deployer, an immutable there) may setRecord(bytes32,address) that node to any wallet; the token's owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            to: 'helper:registry',
            signature: 'function setRecord(bytes32 node, address resolved)',
            args: (c) => [nodeOf(c.token, 'compliance.agent'), c.wallet('rt4.agent')],
          },
          {
            signature: 'function forceTransfer(address from, address to, uint256 amount)',
            args: (c) => [holder(c), c.wallet('rt4.agent'), 2_000_000n * ONE_TOKEN],
            from: 'rt4.agent',
          },
        ],
      },
    },
  },
  t_rt4_flat_fee: {
    contract: 'TnRt4FlatFeeToken',
    name: 'Flat Rate',
    symbol: 'FLAT',
    args: (c) => ['Flat Rate', 'FLAT', c.supply, c.router, c.wallet('rt4.fee-wallet')],
    market: 'healthy',
    pattern:
      'a flat fee per sell, in whole tokens (1,000 at launch); setSellFee(uint256) is capped at 2,000,000 tokens, "never above 0.2 % of the supply", yet that is a third or more of an ordinary holder\'s sell, and the whole of a smaller one; owner kept',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function setSellFee(uint256 tokens)', args: () => [2_000_000n] }] },
    },
  },
  t_rt4_refusing_wallet: {
    contract: 'TnRt4SwapBackToken',
    name: 'Marketing Engine',
    symbol: 'MKTE',
    args: (c) => ['Marketing Engine', 'MKTE', c.supply, c.router, c.wallet('rt4.marketing')],
    market: 'healthy',
    pattern:
      'a 3 % fee each way, swapped to ETH on sells and sent to a marketing wallet with require(success); setMarketingWallet(address) refuses the zero, dead, token and pair addresses, but accepts the router, whose receive() takes ETH only from WETH: pointed there, every sell that swaps the fees back reverts; owner kept',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function setMarketingWallet(address wallet)', args: (c) => [c.router] }],
      },
    },
  },
  t_rt4_dust_cooldown: {
    contract: 'TnRt4TransferCooldownToken',
    name: 'Sniper Shield',
    symbol: 'SNSH',
    args: (c) => ['Sniper Shield', 'SNSH', c.supply, c.router, c.wallet('rt4.team')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "an anti-sniper cooldown: tokens received by a wallet-to-wallet transfer lock the receiver's sells for seven days (buys from the pool and the deployer's distributions are exempt); a team wallet minted 2 % at deploy, stored nowhere, locks any holder's sells by sending it one base unit, as often as it likes; the owner renounced",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function transfer(address to, uint256 value) returns (bool)',
            args: (c) => [holder(c), 1n],
            from: 'rt4.team',
          },
        ],
      },
    },
  },
  t_rt4_queued_batch: {
    contract: 'TnRt4QueuedBatchToken',
    name: 'Queued Ops',
    symbol: 'QOPS',
    args: (c) => ['Queued Ops', 'QOPS', c.supply],
    market: 'healthy',
    pattern:
      'the self-call pattern with a timelock: distributeIncentives(address,uint256) mints only when the token calls itself, and execute(bytes[]) runs a batch only two days after the owner queued those exact calls (readable by anyone): an uncapped mint behind a two-day delay; owner kept',
    labels: benign('benign_unusual'),
  },
  t_rt4_checked_batch: {
    contract: 'TnRt4CheckedBatchToken',
    name: 'Batch Safe',
    symbol: 'BSAF',
    args: (c) => ['Batch Safe', 'BSAF', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'batchTransfer(address[],uint256) sends the same value to up to 200 receivers through the checked transfer: the sender pays for each; the owner renounced',
    labels: benign('benign_unusual'),
  },
  t_rt4_resolved_fee: {
    contract: 'TnRt4ResolvedFeeToken',
    name: 'Resolver Fee',
    symbol: 'RSLV',
    helpers: [{ name: 'registry', contract: 'TnRt4NameRegistry' }],
    args: (c) => ['Resolver Fee', 'RSLV', c.supply, c.router, c.helpers.registry],
    market: 'healthy',
    launch: [
      {
        to: 'helper:registry',
        signature: 'function setRecord(bytes32 node, address resolved)',
        args: (c) => [nodeOf(c.token, 'fee.recipient'), c.wallet('rt4.fees')],
      },
      renounce,
    ],
    pattern:
      "a fixed 2 % sell fee, paid in tokens to whatever a name registry (the deployer its admin) resolves for the token's fee node: the admin may redirect the fee at any time but never raise it, and a token transfer to any address cannot make a sell fail; the owner renounced",
    labels: benign('benign_unusual'),
  },
};
