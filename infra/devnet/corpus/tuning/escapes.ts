import { maxUint256 } from 'viem';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Tuning tokens for the known escapes (Escapes.sol): arguments in arrays and structs, powers held
// by accounts kept only in mappings, and powers that take two calls.

const ONE_TOKEN = 10n ** 18n;
const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

export const ESCAPE_TOKENS: Record<string, CorpusTokenSpec> = {
  t_batch_grant: {
    contract: 'TnBatchGrantToken',
    name: 'Grant Wave',
    symbol: 'GRWV',
    args: (c) => ['Grant Wave', 'GRWV', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'grantBatch(address[],uint256[]) mints to lists of wallets, for granters in a mapping (the deployer)',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function grantBatch(address[] to, uint256[] amounts)',
            args: (c) => [[c.deployer], [c.supply * 10n]],
          },
        ],
      },
    },
  },
  t_drop: {
    contract: 'TnDropToken',
    name: 'Rain Drop',
    symbol: 'RDRP',
    args: (c) => ['Rain Drop', 'RDRP', c.supply, c.wallet('tn.drop-distributor')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'dropTo(address[],uint256) mints to a list, for a distributor named only in the constructor arguments and kept in a mapping',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function dropTo(address[] to, uint256 each)',
            args: (c) => [[c.wallet('tn.drop-distributor')], c.supply * 10n],
            from: 'tn.drop-distributor',
          },
        ],
      },
    },
  },
  t_clearing: {
    contract: 'TnClearingToken',
    name: 'Clearing House',
    symbol: 'CLRH',
    args: (c) => ['Clearing House', 'CLRH', c.supply],
    market: 'healthy',
    launch: [
      { signature: 'function setClearer(address who, bool on)', args: (c) => [c.wallet('tn.clearer'), true] },
      renounce,
    ],
    pattern:
      'clear((address,uint256,uint256)) burns from any account through an order with a deadline, for a clearer set by a call that emits nothing',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function clear((address account, uint256 amount, uint256 deadline) order)',
            args: (c) => [{ account: holder(c), amount: ONE_TOKEN, deadline: maxUint256 }],
            from: 'tn.clearer',
          },
        ],
      },
    },
  },
  t_flag_batch: {
    contract: 'TnFlagBatchToken',
    name: 'Sentinel',
    symbol: 'SNTL',
    args: (c) => ['Sentinel', 'SNTL', c.supply, c.wallet('tn.sentinel')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'flagBatch(address[],bool) stops listed wallets from sending, for a sentinel named only in the constructor arguments',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function flagBatch(address[] accounts, bool on)',
            args: (c) => [[holder(c)], true],
            from: 'tn.sentinel',
          },
        ],
      },
    },
  },
  t_minter_role: {
    contract: 'TnMinterRoleToken',
    name: 'Issuer',
    symbol: 'ISSR',
    args: (c) => ['Issuer', 'ISSR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'the minter admin (the deployer, in a later slot) names a minter with assignMinter(address), who then mints with issue(address,uint256)',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function assignMinter(address who)', args: (c) => [c.deployer] },
          {
            signature: 'function issue(address to, uint256 amount)',
            args: (c) => [c.deployer, c.supply * 10n],
          },
        ],
      },
    },
  },
  t_staged_cap: {
    contract: 'TnStagedCapToken',
    name: 'Two Step',
    symbol: 'TWST',
    args: (c) => ['Two Step', 'TWST', c.supply, c.router],
    market: 'healthy',
    pattern: 'stageSellCap(uint256) then commitRules() caps sells; neither call alone changes anything',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { signature: 'function stageSellCap(uint256 value)', args: () => [0n] },
          { signature: 'function commitRules()' },
        ],
      },
    },
  },
  t_scheduled_reclaim: {
    contract: 'TnScheduledReclaimToken',
    name: 'Recovery',
    symbol: 'RCVR',
    args: (c) => ['Recovery', 'RCVR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'scheduleReclaim(address) then executeReclaim() moves everything an account holds to a recovery wallet in a mapping (the deployer)',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          { signature: 'function scheduleReclaim(address account)', args: (c) => [holder(c)] },
          { signature: 'function executeReclaim()' },
        ],
      },
    },
  },
  t_proposed_fee: {
    contract: 'TnProposedFeeToken',
    name: 'Steady Fee',
    symbol: 'STFE',
    args: (c) => ['Steady Fee', 'STFE', c.supply, c.wallet('tn.fee-treasury')],
    market: 'healthy',
    pattern: 'a 3 % fee the owner proposes and then applies, never above 5 %',
    labels: benign('benign_unusual'),
  },
  t_timelocked_mint: {
    contract: 'TnTimelockedMintToken',
    name: 'Slow Mint',
    symbol: 'SLMT',
    args: (c) => ['Slow Mint', 'SLMT', c.supply],
    market: 'healthy_locked',
    pattern: 'the owner queues a mint that can run only two days later (a timelock)',
    labels: benign('benign_unusual'),
  },
  t_treasury_drop: {
    contract: 'TnTreasuryDropToken',
    name: 'Handout',
    symbol: 'HNDT',
    args: (c) => ['Handout', 'HNDT', c.supply],
    market: 'healthy_locked',
    pattern: 'the owner airdrops to lists of wallets from its own balance',
    labels: benign('benign_unusual'),
  },
  t_ledger_rewrite: {
    contract: 'TnLedgerV1',
    name: 'Ledger Rewrite',
    symbol: 'LDRW',
    proxy: { admin: 'deployer', upgrade: { contract: 'TnLedgerV2' } },
    market: 'healthy',
    pattern:
      "behind a proxy upgraded after trading to an implementation whose reconcile(address,uint256) sets any balance (a holder's down, the steward's up) for the steward initialize() stored",
    labels: scam('mint', 'leak'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function reconcile(address account, uint256 amount)',
            args: (c) => [c.deployer, c.supply * 10n],
          },
        ],
      },
      leak: {
        steps: [
          { signature: 'function reconcile(address account, uint256 amount)', args: (c) => [holder(c), 0n] },
        ],
      },
    },
  },
  t_ledger_accrue: {
    contract: 'TnLedgerV1',
    name: 'Ledger Accrue',
    symbol: 'LDAC',
    proxy: { admin: 'deployer', upgrade: { contract: 'TnLedgerV3' } },
    market: 'healthy',
    pattern:
      'behind a proxy upgraded after trading to an implementation whose accrue(uint256) mints any amount to the steward',
    labels: scam('mint'),
    proofs: {
      mint: { steps: [{ signature: 'function accrue(uint256 amount)', args: (c) => [c.supply * 10n] }] },
    },
  },
  t_ledger_timelocked: {
    contract: 'TnLedgerV1',
    name: 'Ledger Timelocked',
    symbol: 'LDTL',
    proxy: { admin: 'timelock' },
    market: 'healthy',
    pattern: 'a plain token behind a proxy whose upgrades wait two days in a timelock',
    labels: benign('benign_unusual'),
  },
  t_credit: {
    contract: 'TnCreditToken',
    name: 'Credit Line',
    symbol: 'CRDL',
    args: (c) => ['Credit Line', 'CRDL', c.supply],
    market: 'healthy',
    pattern:
      "creditRewards(uint256) adds any amount to a keeper's balance (the deployer) without raising totalSupply",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function creditRewards(uint256 amount)', args: (c) => [c.supply * 10n] }],
      },
    },
  },
  t_pool_sweep: {
    contract: 'TnPoolSweepToken',
    name: 'Pool Keeper',
    symbol: 'PLKP',
    args: (c) => ['Pool Keeper', 'PLKP', c.supply, c.router],
    market: 'healthy',
    pattern:
      "rebalancePool(uint256) sets the pair's balance to any amount (down: the pool emptied; up: tokens from nothing) and syncs it, for a keeper (the deployer)",
    labels: scam('mint', 'leak'),
    proofs: {
      mint: {
        steps: [{ signature: 'function rebalancePool(uint256 amount)', args: (c) => [c.supply * 10n] }],
      },
      leak: { steps: [{ signature: 'function rebalancePool(uint256 amount)', args: () => [1n] }] },
    },
  },
};
