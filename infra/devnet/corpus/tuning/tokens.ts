import { DRIP_TOKENS } from './drip.ts';
import { ESCAPE_TOKENS } from './escapes.ts';
import { HIDDEN_TOKENS } from './hidden.ts';
import { LATER_TOKENS } from './later.ts';
import { LATER_BLOCK_TOKENS } from './laterBlocks.ts';
import { REDTEAM_TOKENS } from './redteam.ts';
import { REDTEAM2_TOKENS } from './redteam2.ts';
import { REDTEAM3_TOKENS } from './redteam3.ts';
import { REDTEAM4_TOKENS } from './redteam4.ts';
import { REVIEW_CHECK_TOKENS } from './reviewChecks.ts';
import { REDTEAM5_TOKENS } from './redteam5.ts';
import { REFLECTION_TOKENS } from './reflections.ts';
import { WALLET_TOKENS } from './wallets.ts';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// The tuning part of the corpus: what the model is built and checked against (Tuning.sol).

const ONE_TOKEN = 10n ** 18n;
const DAY = 86_400;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

export const TUNING_TOKENS: Record<string, CorpusTokenSpec> = {
  t_harvest: {
    contract: 'TnHarvestToken',
    name: 'Harvest Moon',
    symbol: 'HRVM',
    args: (c) => ['Harvest Moon', 'HRVM', c.supply, c.wallet('tn.keeper')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'harvest(uint256) mints any amount to a keeper wallet kept in storage; owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function harvest(uint256)', args: (c) => [c.supply * 10n], from: 'tn.keeper' }],
      },
    },
  },
  t_sync: {
    contract: 'TnSyncToken',
    name: 'Sync Pool',
    symbol: 'SYNP',
    args: (c) => ['Sync Pool', 'SYNP', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: 'syncReserves(address,uint256) mints for an operator kept in a mapping (the deployer)',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function syncReserves(address,uint256)', args: (c) => [c.deployer, c.supply] }],
      },
    },
  },
  t_vesting_bomb: {
    contract: 'TnVestingBombToken',
    name: 'Vest Later',
    symbol: 'VSTL',
    args: (c) => ['Vest Later', 'VSTL', c.supply, c.wallet('tn.treasury')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'release() mints five times the supply to a treasury, from a day after deployment',
    labels: scam('mint'),
    proofs: { mint: { afterSeconds: 2 * DAY, steps: [{ signature: 'function release()' }] } },
  },
  t_rewards_module: {
    contract: 'TnRewardsToken',
    name: 'Epoch Rewards',
    symbol: 'EPRW',
    args: (c) => ['Epoch Rewards', 'EPRW', c.supply, c.wallet('tn.distributor')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'distributeEpoch(uint256) in an inherited module mints for a distributor in a later slot',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function distributeEpoch(uint256)', args: (c) => [c.supply], from: 'tn.distributor' },
        ],
      },
    },
  },
  t_shadow_admin: {
    contract: 'TnShadowAdminToken',
    name: 'Steward',
    symbol: 'STWD',
    args: (c) => ['Steward', 'STWD', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: 'owner() is zero after the renounce; compensate(address,uint256) checks a second admin variable',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function compensate(address,uint256)', args: (c) => [c.deployer, c.supply] }],
      },
    },
  },
  t_rebalance: {
    contract: 'TnRebalanceToken',
    name: 'Rebalancer',
    symbol: 'RBLN',
    args: (c) => ['Rebalancer', 'RBLN', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: "rebalance(address,uint256) moves a holder's tokens to a manager role kept in a mapping",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [{ signature: 'function rebalance(address,uint256)', args: (c) => [holder(c), ONE_TOKEN] }],
      },
    },
  },
  t_collect: {
    contract: 'TnCollectToken',
    name: 'Collector',
    symbol: 'CLCT',
    args: (c) => ['Collector', 'CLCT', c.supply],
    market: 'healthy',
    pattern: 'collect(address,uint256) takes from any holder for the owner without an allowance',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [{ signature: 'function collect(address,uint256)', args: (c) => [holder(c), ONE_TOKEN] }],
      },
    },
  },
  t_trusted_spender: {
    contract: 'TnTrustedSpenderToken',
    name: 'Smooth Router',
    symbol: 'SMRT',
    args: (c) => ['Smooth Router', 'SMRT', c.supply, c.wallet('tn.spender')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'transferFrom skips the allowance for a stored "router" wallet; owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function transferFrom(address,address,uint256) returns (bool)',
            args: (c) => [holder(c), c.wallet('tn.spender'), ONE_TOKEN],
            from: 'tn.spender',
          },
        ],
      },
    },
  },
  t_expire: {
    contract: 'TnExpireToken',
    name: 'Dormant Sweep',
    symbol: 'DRMS',
    args: (c) => ['Dormant Sweep', 'DRMS', c.supply],
    market: 'healthy',
    pattern: 'expire(address) burns a holder\'s whole balance ("dormant wallet clean-up")',
    labels: scam('leak'),
    proofs: { leak: { steps: [{ signature: 'function expire(address)', args: (c) => [holder(c)] }] } },
  },
  t_guard: {
    contract: 'TnGuardToken',
    name: 'Guard Rail',
    symbol: 'GRDR',
    args: (c) => ['Guard Rail', 'GRDR', c.supply],
    market: 'healthy',
    pattern: 'setGuard(address,bool) blocks chosen senders: a blocklist under another name',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function setGuard(address,bool)', args: (c) => [holder(c), true] }] },
    },
  },
  t_quota: {
    contract: 'TnQuotaToken',
    name: 'Quota',
    symbol: 'QOTA',
    args: (c) => ['Quota', 'QOTA', c.supply, c.router],
    market: 'healthy',
    launch: [renounce],
    pattern: 'setQuota(uint256) caps sells for everyone but controllers kept in a mapping',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function setQuota(uint256)', args: () => [0n] }] } },
  },
  t_maintenance: {
    contract: 'TnMaintenanceToken',
    name: 'Upkeep',
    symbol: 'UPKP',
    args: (c) => ['Upkeep', 'UPKP', c.supply],
    market: 'healthy',
    pattern: "maintenanceMode(bool) stops every transfer but the owner's: a pause under another name",
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function maintenanceMode(bool)', args: () => [true] }] } },
  },
  t_late_tax: {
    contract: 'TnLateTaxToken',
    name: 'Slow Burn',
    symbol: 'SLWB',
    args: (c) => ['Slow Burn', 'SLWB', c.supply, c.router],
    market: 'healthy',
    launch: [renounce],
    pattern: 'sells lose half to the deployer from thirty days after deployment, with no call at all',
    labels: scam('limit'),
    proofs: { limit: { afterSeconds: 31 * DAY, steps: [] } },
  },
  t_tune_fee: {
    contract: 'TnTuneFeeToken',
    name: 'Tuned',
    symbol: 'TUND',
    args: (c) => ['Tuned', 'TUND', c.supply, c.router],
    market: 'healthy',
    pattern:
      'owner() always reads zero; tune(uint256) sets an uncapped sell fee for a wallet kept in storage',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function tune(uint256)', args: () => [90n] }] } },
  },
  t_capped_fee: {
    contract: 'TnCappedFeeToken',
    name: 'Fair Fee',
    symbol: 'FFEE',
    args: (c) => ['Fair Fee', 'FFEE', c.supply, c.wallet('tn.fee-treasury')],
    market: 'healthy',
    pattern: 'a 3 % transfer fee to a treasury; the owner may change it, never above 5 %',
    labels: benign('benign_unusual'),
  },
  t_burn_on_transfer: {
    contract: 'TnBurnOnTransferToken',
    name: 'Ember',
    symbol: 'EMBR',
    args: (c) => ['Ember', 'EMBR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: 'every transfer burns 1 %',
    labels: benign('benign_unusual'),
  },
  t_capped_emission: {
    contract: 'TnCappedEmissionToken',
    name: 'Measured',
    symbol: 'MSRD',
    args: (c) => ['Measured', 'MSRD', c.supply],
    market: 'healthy_locked',
    pattern: 'the owner may mint, up to 5 % above the launch supply in all',
    labels: benign('benign_unusual'),
  },
  t_permit: {
    contract: 'TnPermitToken',
    name: 'Signed',
    symbol: 'SGND',
    args: (c) => ['Signed', 'SGND', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: 'EIP-2612 permit, owner renounced',
    labels: benign('benign_unusual'),
  },
  t_one_way_launch: {
    contract: 'TnOneWayLaunchToken',
    name: 'Doors Open',
    symbol: 'DOPN',
    args: (c) => ['Doors Open', 'DOPN', c.supply],
    market: 'healthy',
    launch: [{ signature: 'function openTrading()' }],
    pattern: 'trading opens once (openTrading) and can never close again; owner kept',
    labels: benign('benign_unusual'),
  },
  t_rising_limit: {
    contract: 'TnRisingLimitToken',
    name: 'Headroom',
    symbol: 'HDRM',
    args: (c) => ['Headroom', 'HDRM', c.supply],
    market: 'healthy_locked',
    pattern: 'a 5 % max wallet the owner may only raise',
    labels: benign('benign_unusual'),
  },
  t_plain: {
    contract: 'TnPlainToken',
    name: 'Plain Jane',
    symbol: 'PLJN',
    args: (c) => ['Plain Jane', 'PLJN', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern: 'a plain ERC-20 whose owner renounced',
    labels: benign('benign_plain'),
  },
  // Written after vigil-risk/13 by the model's authors, as a false-positive check of its router
  // shape (SwapBack.sol): the common tax-token template whose payout may fail without harm.
  t_swapback_tolerant: {
    contract: 'TnSwapBackTolerantToken',
    name: 'Growth Fund',
    symbol: 'GRWF',
    args: (c) => ['Growth Fund', 'GRWF', c.supply, c.router, c.wallet('swapback.marketing')],
    market: 'healthy',
    pattern:
      'a 3 % fee each way, swapped to ETH on sells and paid to a marketing wallet the owner may change to any address; a payout the wallet refuses stays in the token for the next sell, which goes on; owner kept',
    labels: benign('benign_unusual'),
  },
  ...ESCAPE_TOKENS,
  ...LATER_TOKENS,
  ...DRIP_TOKENS,
  ...HIDDEN_TOKENS,
  ...REDTEAM_TOKENS,
  ...REDTEAM2_TOKENS,
  ...REDTEAM3_TOKENS,
  ...REDTEAM4_TOKENS,
  ...REVIEW_CHECK_TOKENS,
  ...REDTEAM5_TOKENS,
  ...LATER_BLOCK_TOKENS,
  ...REFLECTION_TOKENS,
  ...WALLET_TOKENS,
};
