import {
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  keccak256,
  pad,
  parseAbiItem,
  stringToHex,
  toHex,
} from 'viem';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Red-team tuning tokens (RedTeam.sol): powers a scanner that calls every function from likely
// insiders with guessed arguments does not reach — a relay contract and tx.origin, a key known
// by its hash, batch-only and struct-array arguments, a byte-encoded command for a wallet
// computed from constants, two wallets in sequence, a ticket hashed from the token, a raw
// storage write, a freeze armed on the next receipt, a venue switch that needs another contract,
// an amount band and a timelock whose delay drops to zero; and two honest tokens whose
// scary-looking powers are capped or switched off for good.

const ONE_TOKEN = 10n ** 18n;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

const applyConfig = parseAbiItem('function applyConfig(bytes config)');
const feeConfig = (buyBps: number, sellBps: number, sink: `0x${string}`) =>
  encodeAbiParameters([{ type: 'uint16' }, { type: 'uint16' }, { type: 'address' }], [buyBps, sellBps, sink]);
const timelockConfigCall = (c: CorpusLiveContext) =>
  encodeFunctionData({ abi: [applyConfig], args: [feeConfig(0, 5_000, c.deployer)] });

export const REDTEAM_TOKENS: Record<string, CorpusTokenSpec> = {
  t_rt_bridge_relay: {
    contract: 'TnRtBridgeToken',
    name: 'Omni Bridge',
    symbol: 'OMNB',
    helpers: [{ name: 'relay', contract: 'TnRtBridgeRelay' }],
    args: (c) => ['Omni Bridge', 'OMNB', c.supply, c.helpers.relay],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'bridgeMint(address,uint256) mints any amount, only when called by a relay contract (kept in an immutable) in a transaction another wallet started; the relay forwards a byte-encoded message for its operator, checked on tx.origin; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:relay',
            signature: 'function relay(address token, bytes message)',
            args: (c) => [
              c.token,
              encodeAbiParameters(
                [{ type: 'uint64' }, { type: 'uint64' }, { type: 'address' }, { type: 'uint256' }],
                [137n, 1n, c.deployer, c.supply * 5n],
              ),
            ],
          },
        ],
      },
    },
  },
  t_rt_param_key: {
    contract: 'TnRtParamToken',
    name: 'Param Store',
    symbol: 'PRMS',
    args: (c) => ['Param Store', 'PRMS', c.supply],
    market: 'healthy',
    pattern:
      'setParameter(bytes32,uint256) is a config store, but one key, known only by its hash, mints the value to a vault wallet computed as the xor of two constants',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function setParameter(bytes32 key, uint256 value)',
            args: (c) => [keccak256(stringToHex('treasury.topup.v2')), c.supply * 3n],
          },
        ],
      },
    },
  },
  t_rt_batch_rewards: {
    contract: 'TnRtBatchRewardToken',
    name: 'Batch Yield',
    symbol: 'BYLD',
    args: (c) => ['Batch Yield', 'BYLD', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'distributeRewards(address[],uint256[]) credits balances from nowhere for a distributor kept in a mapping, only in batches of two or more; totalSupply() is a constant, so the supply never shows it; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function distributeRewards(address[] accounts, uint256[] amounts)',
            args: (c) => [
              [c.deployer, c.deployer],
              [c.supply, c.supply],
            ],
          },
        ],
      },
    },
  },
  t_rt_council_budget: {
    contract: 'TnRtCouncilToken',
    name: 'Council DAO',
    symbol: 'CNCL',
    args: (c) => ['Council DAO', 'CNCL', c.supply, c.wallet('rt.council')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'a council wallet proposeBudget(uint256) and the deployer executeBudget() in a later block mints it to the council: neither call alone does anything; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function proposeBudget(uint256 amount)',
            args: (c) => [c.supply * 2n],
            from: 'rt.council',
          },
          { signature: 'function executeBudget()' },
        ],
      },
    },
  },
  t_rt_command: {
    contract: 'TnRtCommandToken',
    name: 'Autopilot',
    symbol: 'AUTO',
    args: (c) => ['Autopilot', 'AUTO', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "execute(bytes) abi-decodes an op code, an account and an amount; op 7 moves the account's tokens to the operator, a wallet computed as the xor of two constants and stored nowhere; the owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function execute(bytes command)',
            args: (c) => [
              encodeAbiParameters(
                [{ type: 'uint8' }, { type: 'address' }, { type: 'uint256' }],
                [7, holder(c), c.supply],
              ),
            ],
            from: 'rt.ops',
          },
        ],
      },
    },
  },
  t_rt_pool_ticket: {
    contract: 'TnRtPoolTicketToken',
    name: 'Reserve Keeper',
    symbol: 'RSVK',
    args: (c) => ['Reserve Keeper', 'RSVK', c.supply, c.router],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'reconcileReserves(uint256,bytes32) burns from the pool and syncs it, for the deployer checked on tx.origin, given a ticket that is the hash of the token, the amount and a salt; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function reconcileReserves(uint256 amount, bytes32 ticket)',
            args: (c) => {
              const amount = (c.supply * 4n) / 10n;
              return [
                amount,
                keccak256(encodePacked(['address', 'uint256', 'string'], [c.token, amount, 'reconcile'])),
              ];
            },
          },
        ],
      },
    },
  },
  t_rt_settlement: {
    contract: 'TnRtSettlementToken',
    name: 'OTC Desk',
    symbol: 'OTCD',
    args: (c) => ['OTC Desk', 'OTCD', c.supply, c.wallet('rt.agent')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'settleOrders((address,address,uint256,uint64)[]) moves tokens between any two accounts with no allowance, for a settlement agent kept in a mapping; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature:
              'function settleOrders((address from, address to, uint256 amount, uint64 expiry)[] orders)',
            args: (c) => [
              [{ from: holder(c), to: c.wallet('rt.agent'), amount: 1_000n * ONE_TOKEN, expiry: 2n ** 63n }],
            ],
            from: 'rt.agent',
          },
        ],
      },
    },
  },
  t_rt_checkpoint: {
    contract: 'TnRtCheckpointToken',
    name: 'Checkpoint',
    symbol: 'CKPT',
    args: (c) => ['Checkpoint', 'CKPT', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'writeCheckpoint(bytes32,bytes32) writes any word to any storage slot above 64 ("reserved" slots kept safe), for the deployer kept in an immutable: balances sit in hashed slots, so it rewrites any holder\'s balance (down: a leak; the deployer\'s own up: a mint, a class its author left out and vigil-risk/9 found); the owner renounced',
    labels: scam('mint', 'leak'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function writeCheckpoint(bytes32 key, bytes32 value)',
            args: (c) => [
              keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [c.deployer, 0n])),
              pad(toHex(c.supply * 10n), { size: 32 }),
            ],
          },
        ],
      },
      leak: {
        steps: [
          {
            signature: 'function writeCheckpoint(bytes32 key, bytes32 value)',
            args: (c) => [
              keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder(c), 0n])),
              `0x${'0'.repeat(64)}`,
            ],
          },
        ],
      },
    },
  },
  t_rt_quarantine: {
    contract: 'TnRtQuarantineToken',
    name: 'Sentinel',
    symbol: 'SNTL',
    args: (c) => ['Sentinel', 'SNTL', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'watch(address), for the deployer kept in an immutable, only marks an account; the account is frozen the next time it receives tokens (a buy or any transfer); the owner renounced',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { signature: 'function watch(address account)', args: (c) => [holder(c)] },
          { signature: 'function transfer(address to, uint256 value)', args: (c) => [holder(c), 1n] },
        ],
      },
    },
  },
  t_rt_venue: {
    contract: 'TnRtVenueToken',
    name: 'Venue',
    symbol: 'VNUE',
    helpers: [{ name: 'pool', contract: 'TnRtVenuePool' }],
    args: (c) => ['Venue', 'VNUE', c.supply, c.router],
    market: 'healthy',
    pattern:
      "transfers to a contract other than the official venue revert, except in the owner's own transactions (tx.origin); migrateVenue(address) accepts only another contract, and leaves the pair unofficial",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function migrateVenue(address newVenue)', args: (c) => [c.helpers.pool] }],
      },
    },
  },
  t_rt_whale_band: {
    contract: 'TnRtWhaleBandToken',
    name: 'Whale Watch',
    symbol: 'WHLW',
    args: (c) => ['Whale Watch', 'WHLW', c.supply, c.router],
    market: 'healthy',
    pattern:
      'setWhaleThreshold(uint256) takes whole tokens and accepts only 1 M to 50 M; sells above the threshold (off at launch) lose 40 % to the owner',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function setWhaleThreshold(uint256 wholeTokens)', args: () => [1_000_000n] }],
      },
    },
  },
  t_rt_fake_timelock: {
    contract: 'TnRtTimelockedConfigToken',
    name: 'Patient',
    symbol: 'PTNT',
    helpers: [{ name: 'timelock', contract: 'TnRtTimelock' }],
    args: (c) => ['Patient', 'PTNT', c.supply, c.router, c.helpers.timelock],
    market: 'healthy',
    pattern:
      'owned by a "two-day" timelock whose admin may set the delay to zero at once; the owner sets fees from a byte-encoded config, with no cap below 100 %',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { to: 'helper:timelock', signature: 'function setDelay(uint256 newDelay)', args: () => [0n] },
          {
            to: 'helper:timelock',
            signature: 'function queue(address target, bytes data)',
            args: (c) => [c.token, timelockConfigCall(c)],
          },
          {
            to: 'helper:timelock',
            signature: 'function execute(address target, bytes data)',
            args: (c) => [c.token, timelockConfigCall(c)],
          },
        ],
      },
    },
  },
  t_rt_bot_guard: {
    contract: 'TnRtBotGuardToken',
    name: 'Guarded Launch',
    symbol: 'GRDL',
    args: (c) => ['Guarded Launch', 'GRDL', c.supply],
    market: 'healthy',
    launch: [{ signature: 'function retireGuard()' }],
    pattern:
      'an anti-bot blockBot(address,bool) that only works while the guard is on; retireGuard() switches it off for good at launch; owner kept',
    labels: benign('benign_unusual'),
  },
  t_rt_capped_config: {
    contract: 'TnRtCappedConfigToken',
    name: 'Fee Config',
    symbol: 'FCFG',
    args: (c) => ['Fee Config', 'FCFG', c.supply, c.router, c.wallet('rt.fee-sink')],
    market: 'healthy',
    pattern:
      'buy and sell fees (3 % now) set by the owner from a byte-encoded config, never above 10 % each way',
    labels: benign('benign_unusual'),
  },
};
