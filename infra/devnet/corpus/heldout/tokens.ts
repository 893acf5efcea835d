import { encodeFunctionData, parseAbi } from 'viem';
import {
  type CorpusContext,
  type CorpusTokenSpec,
  benign,
  LAUNCH_STATE_BAND,
  renounce,
  scam,
} from '../spec.ts';

// The held-out part of the corpus: written before the model that scans it was changed, and never
// read while tuning it. Each contract is written as an attacker (or an unusual but honest
// project) would write it; the labels say what the contract lets an insider do.

const DAY = 86_400;
const CONSOLE = 'function execute(uint8 op, address account, uint256 amount)';
const plain = (name: string, symbol: string) => ({
  name,
  symbol,
  args: (c: CorpusContext) => [name, symbol, c.supply],
});
const routed = (name: string, symbol: string) => ({
  name,
  symbol,
  args: (c: CorpusContext) => [name, symbol, c.supply, c.router],
});

export const HELDOUT_TOKENS: Record<string, CorpusTokenSpec> = {
  // Mints under innocuous names, behind wallets other than owner().
  h_claim_allocation: {
    contract: 'HarborToken',
    ...plain('Harbor', 'HRBR'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'claimAllocation(uint256) mints for a vesting beneficiary kept in storage after the renounce',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function claimAllocation(uint256 amount)', args: (c) => [c.supply / 100n] }],
      },
    },
  },
  h_mint_remainder: {
    contract: 'RemainderToken',
    name: 'Remainder',
    symbol: 'RMDR',
    args: (c) => ['Remainder', 'RMDR', c.supply, c.router, c.wallet('heldout.ops')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'mintRemainder() callable by an operations wallet passed at deployment, kept in a late slot',
    labels: scam('mint'),
    proofs: { mint: { steps: [{ signature: 'function mintRemainder()', from: 'heldout.ops' }] } },
  },
  h_sync_rewards: {
    contract: 'StakeFlowToken',
    ...plain('Stake Flow', 'SFLOW'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'syncRewards(address,uint256) mints for distributors held in a mapping (the deployer)',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function syncRewards(address staker, uint256 reward)',
            args: (c) => [c.deployer, c.supply / 100n],
          },
        ],
      },
    },
  },
  h_rebalance_constant: {
    contract: 'EquilibriumToken',
    ...plain('Equilibrium', 'EQLB'),
    market: 'healthy',
    launch: [renounce],
    pattern:
      'rebalance(uint256) writes supply and balance without an event, for an address compiled into the code',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function rebalance(uint256 delta)',
            args: (c) => [c.supply / 100n],
            from: 'heldout.vault',
          },
        ],
      },
    },
  },
  h_bonus_after_three_days: {
    contract: 'BonusDropToken',
    ...plain('Bonus Drop', 'BDROP'),
    market: 'healthy',
    pattern: 'airdropBonus(address,uint256): an owner mint that only works three days after launch',
    labels: scam('mint'),
    proofs: {
      mint: {
        afterSeconds: 4 * DAY,
        steps: [
          {
            signature: 'function airdropBonus(address recipient, uint256 amount)',
            args: (c) => [c.deployer, c.supply / 100n],
          },
        ],
      },
    },
  },
  h_epoch_inherited: {
    contract: 'TideToken',
    ...plain('Tide', 'TIDE'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'processEpoch(uint256) in an inherited rewards module mints for keepers in a mapping',
    labels: scam('mint'),
    proofs: {
      mint: { steps: [{ signature: 'function processEpoch(uint256 epoch)', args: () => [1_000n] }] },
    },
  },
  h_upgrade_migrate_mint: {
    contract: 'GatewayToken',
    name: 'Gateway',
    symbol: 'GATE',
    proxy: {
      admin: 'deployer',
      upgrade: {
        contract: 'GatewayTokenV2',
        initialize: { signature: 'function initializeV2(address migrator)', args: (c) => [c.deployer] },
      },
    },
    market: 'healthy',
    pattern:
      'a clean proxy upgraded after trading to an implementation whose migrateHolders(address[],uint256) mints',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function migrateHolders(address[] accounts, uint256 amount)',
            args: (c) => [[c.deployer], c.supply / 100n],
          },
        ],
      },
    },
  },
  h_fake_renounce_compensate: {
    contract: 'ReliefToken',
    ...plain('Relief', 'RLF'),
    market: 'healthy',
    launch: [renounce],
    pattern:
      'renounce clears owner(), but onlyOwner also admits a hidden admin; compensate(address,uint256) mints',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function compensate(address account, uint256 amount)',
            args: (c) => [c.deployer, c.supply / 100n],
          },
        ],
      },
    },
  },
  h_bridge_settle: {
    contract: 'PortalToken',
    name: 'Portal',
    symbol: 'PRTL',
    args: (c) => ['Portal', 'PRTL', c.supply, c.wallet('heldout.relayer')],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'settleBridge(address,uint256,bytes32) mints for a relayer set at deployment, any transfer id accepted',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function settleBridge(address recipient, uint256 amount, bytes32 transferId)',
            args: (c) => [c.deployer, c.supply / 100n, `0x${'01'.repeat(32)}`],
            from: 'heldout.relayer',
          },
        ],
      },
    },
  },
  h_instant_timelock: {
    contract: 'CouncilToken',
    ...plain('Council', 'CNCL'),
    helpers: [{ name: 'timelock', contract: 'InstantTimelock', args: (c) => [c.deployer] }],
    market: 'healthy',
    launch: [
      {
        signature: 'function transferOwnership(address newOwner)',
        args: (c) => [c.helpers.timelock],
      },
    ],
    pattern:
      'owned by a "timelock" contract that executes its admin\'s calls with no delay; mint(address,uint256)',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:timelock',
            signature: 'function execute(address target, bytes data)',
            args: (c) => [
              c.token,
              encodeFunctionData({
                abi: parseAbi(['function mint(address to, uint256 amount)']),
                args: [c.deployer, c.supply / 100n],
              }),
            ],
          },
        ],
      },
    },
  },

  // Balances taken or rewritten.
  h_reflection_reconcile: {
    contract: 'ReconcileToken',
    ...routed('Reconcile', 'RCNL'),
    market: 'healthy',
    launch: [renounce],
    pattern: "a reflection token whose reconcile(address) moves 99 % of a holder's reflections to a manager",
    labels: scam('leak'),
    proofs: {
      leak: { steps: [{ signature: 'function reconcile(address holder)', args: (c) => [c.traders[0]] }] },
    },
  },
  h_transfer_from_router: {
    contract: 'PilotToken',
    ...plain('Pilot', 'PILOT'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'transferFrom skips the allowance for "trusted routers" in a mapping (the deployer)',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function transferFrom(address from, address to, uint256 amount)',
            args: (c) => [c.traders[0], c.deployer, 1n],
          },
        ],
      },
    },
  },
  h_snapshot_write: {
    contract: 'LedgerToken',
    name: 'Ledger',
    symbol: 'LDGR',
    args: (c) => ['Ledger', 'LDGR', c.supply, c.wallet('heldout.snapshotter')],
    market: 'rug_ready',
    pattern: 'updateSnapshot(address,uint256) writes any balance, for a snapshotter set at deployment',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function updateSnapshot(address account, uint256 value)',
            args: (c) => [c.traders[0], 0n],
            from: 'heldout.snapshotter',
          },
        ],
      },
    },
  },
  h_burn_expired: {
    contract: 'SeasonToken',
    ...plain('Season', 'SZN'),
    market: 'healthy',
    pattern: "burnExpired(address): the owner burns any holder's whole balance",
    labels: scam('leak'),
    proofs: {
      leak: { steps: [{ signature: 'function burnExpired(address account)', args: (c) => [c.traders[0]] }] },
    },
  },
  h_recover_after_month: {
    contract: 'HavenToken',
    ...plain('Haven', 'HAVEN'),
    market: 'healthy',
    launch: [renounce],
    pattern:
      "recoverLost(address,address,uint256) moves anyone's tokens, for an agent, from 30 days after launch",
    labels: scam('leak'),
    proofs: {
      leak: {
        afterSeconds: 31 * DAY,
        steps: [
          {
            signature: 'function recoverLost(address from, address to, uint256 amount)',
            args: (c) => [c.traders[0], c.deployer, 1n],
          },
        ],
      },
    },
  },
  h_rescue_self: {
    contract: 'AnchorToken',
    ...plain('Anchor', 'ANCR'),
    market: 'healthy',
    pattern: 'rescueTokens(address,address,uint256) "rescues" this token from any holder to the owner',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function rescueTokens(address token, address from, uint256 amount)',
            args: (c) => [c.token, c.traders[0], 1n],
          },
        ],
      },
    },
  },
  h_distribute_from: {
    contract: 'OrchardToken',
    ...plain('Orchard', 'ORCH'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'distributeRewards(address,address[],uint256) pays recipients out of any account',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            signature: 'function distributeRewards(address from, address[] recipients, uint256 amount)',
            args: (c) => [c.traders[0], [c.deployer], 1n],
          },
        ],
      },
    },
  },
  h_reflection_rate: {
    contract: 'SpectrumToken',
    ...routed('Spectrum', 'SPEC'),
    market: 'healthy',
    launch: [renounce],
    pattern:
      "setRewardRate(uint256) resets the reflection total: every holder's balance shrinks, the supply stays",
    labels: scam('leak'),
    proofs: {
      leak: { steps: [{ signature: 'function setRewardRate(uint256 rate)', args: () => [10n ** 20n] }] },
    },
  },

  // Sells stopped, capped or taxed.
  h_set_rule: {
    contract: 'RulebookToken',
    ...plain('Rulebook', 'RULE'),
    market: 'healthy',
    pattern: 'setRule(address,uint8): rule 1 freezes an account',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { signature: 'function setRule(address account, uint8 rule)', args: (c) => [c.traders[0], 1] },
        ],
      },
    },
  },
  h_maintenance: {
    contract: 'MaintenanceToken',
    ...plain('Maintenance', 'MNT'),
    market: 'healthy',
    launch: [renounce],
    pattern: "toggleMaintenance() stops every transfer but the maintainer's, which survives the renounce",
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function toggleMaintenance()' }] } },
  },
  h_configure_sell_cap: {
    contract: 'ThrottleToken',
    ...routed('Throttle', 'THRTL'),
    market: 'healthy',
    pattern: 'configure(uint256) sets a maximum sell after launch',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function configure(uint256 maxSell)', args: () => [1n] }] } },
  },
  h_protocol_parameters: {
    contract: 'ParameterToken',
    ...routed('Parameter', 'PARAM'),
    market: 'healthy',
    pattern: 'setProtocolParameters(uint16,uint16): trade burn and treasury shares with no ceiling',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function setProtocolParameters(uint16 burnBps, uint16 treasuryBps)',
            args: () => [5_000, 4_000],
          },
        ],
      },
    },
  },
  h_hourglass: {
    contract: 'HourglassToken',
    ...routed('Hourglass', 'HRGL'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'sells revert for everyone but the deployer from two days after launch, with no call at all',
    labels: scam('limit'),
    proofs: { limit: { afterSeconds: 3 * DAY, steps: [] } },
  },
  h_sell_quota: {
    contract: 'QuotaToken',
    ...routed('Quota', 'QUOTA'),
    market: 'honeypot',
    launch: [renounce],
    pattern:
      'only accounts with a sell quota (the deployer) can sell; the revert imitates the pair ("UniswapV2: K")',
    labels: scam('limit'),
    proofs: { limit: { steps: [] } },
  },
  h_manual_sync_buyers: {
    contract: 'SyncToken',
    ...plain('Sync', 'SYNC'),
    market: 'healthy',
    after: [{ signature: 'function manualSync(address[] accounts)', args: (c) => [[...c.traders]] }],
    pattern: 'manualSync(address[]) freezes accounts; used on the buyers after trading',
    labels: scam('limit'),
    proofs: { limit: { steps: [] } },
  },
  h_guardian_protect: {
    contract: 'SentinelToken',
    ...plain('Sentinel', 'SNTL'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'protect(address,bool) freezes accounts, for guardians in a mapping that survives the renounce',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          { signature: 'function protect(address account, bool on)', args: (c) => [c.traders[0], true] },
        ],
      },
    },
  },
  h_upgrade_sell_cap: {
    contract: 'CanalToken',
    name: 'Canal',
    symbol: 'CANAL',
    proxy: {
      admin: 'deployer',
      upgrade: {
        contract: 'CanalTokenV2',
        initialize: {
          signature: 'function initializeV2(address admin, address pair)',
          args: (c) => [c.deployer, c.pair],
        },
      },
    },
    market: 'healthy',
    pattern: 'a clean proxy upgraded after trading to an implementation whose migrate(uint256) caps sells',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function migrate(uint256 maxSell)', args: () => [1n] }] } },
  },
  h_shield_inherited: {
    contract: 'BastionToken',
    ...routed('Bastion', 'BSTN'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'updateShield(uint8) in an inherited anti-sniper module: from level 2 only its keeper sells',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function updateShield(uint8 level)', args: () => [2] }] } },
  },
  h_owner_reads_zero: {
    contract: 'PhantomToken',
    ...routed('Phantom', 'PHNTM'),
    market: 'healthy',
    pattern: 'owner() always returns zero; the real developer sets trade fees with no ceiling',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function setFees(uint256 buyBps, uint256 sellBps)', args: () => [0n, 5_000n] }],
      },
    },
  },
  h_stretch_cooldown: {
    contract: 'PatienceToken',
    ...routed('Patience', 'WAIT2'),
    market: 'healthy',
    pattern: 'setCooldown(uint256) stretches a buy-to-sell cooldown that is zero at launch',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function setCooldown(uint256 seconds_)', args: () => [10n ** 9n] }] },
    },
  },
  h_console_multiplexed: {
    contract: 'ConsoleToken',
    ...plain('Console', 'CNSL'),
    market: 'healthy',
    pattern: "execute(uint8,address,uint256): op 1 mints, op 2 burns a holder's tokens, op 3 freezes",
    labels: scam('mint', 'leak', 'limit'),
    proofs: {
      mint: { steps: [{ signature: CONSOLE, args: (c) => [1, c.deployer, c.supply / 100n] }] },
      leak: { steps: [{ signature: CONSOLE, args: (c) => [2, c.traders[0], 1n] }] },
      limit: { steps: [{ signature: CONSOLE, args: (c) => [3, c.traders[0], 0n] }] },
    },
  },

  // Benign but unusual, with healthy markets.
  h_treasury_fee: {
    contract: 'TreasuryFeeToken',
    ...routed('Treasury Fee', 'TFEE'),
    market: 'healthy',
    pattern: 'a 3 % trade fee to the treasury; the owner may change it up to 5 %',
    labels: benign('benign_unusual'),
  },
  h_reflection_plain: {
    contract: 'MirrorToken',
    ...routed('Mirror', 'MIRR'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'a 2 % reflection fee shared by every holder',
    labels: benign('benign_unusual'),
  },
  h_elastic_supply: {
    contract: 'ElasticToken',
    name: 'Elastic',
    symbol: 'ELAS',
    args: (c) => ['Elastic', 'ELAS', c.router],
    market: 'healthy',
    pattern: 'rebasing: the monetary policy scales every balance by the same factor and syncs the pool',
    labels: benign('benign_unusual'),
  },
  h_governance_permit: {
    contract: 'CommonsToken',
    ...plain('Commons', 'CMNS'),
    market: 'healthy',
    pattern: 'permit signatures and vote delegation, no owner',
    labels: benign('benign_unusual'),
  },
  h_capped_mint: {
    contract: 'SummitToken',
    ...plain('Summit', 'SUMMIT'),
    market: 'healthy',
    pattern: 'an owner mint under a cap the launch already reached',
    labels: benign('benign_unusual'),
  },
  h_timelocked_proxy: {
    contract: 'CivicToken',
    name: 'Civic',
    symbol: 'CIVIC',
    proxy: { admin: 'timelock' },
    market: 'healthy',
    pattern: 'an upgradeable proxy whose admin is a two-day timelock',
    labels: benign('benign_unusual'),
  },
  h_vesting_cliff: {
    contract: 'CliffToken',
    name: 'Cliff',
    symbol: 'CLIFF',
    args: (c) => ['Cliff', 'CLIFF', c.supply, c.wallet('heldout.team')],
    market: 'healthy',
    launch: [renounce],
    pattern: 'a team allocation escrowed in the token, released to the team by anyone after a 180-day cliff',
    labels: benign('benign_unusual'),
  },
  h_no_return: {
    contract: 'MuteToken',
    ...plain('Mute', 'MUTE'),
    market: 'healthy',
    pattern: 'transfer, transferFrom and approve return nothing (USDT-style)',
    labels: benign('benign_unusual'),
  },
  h_burnable: {
    contract: 'EmberToken',
    ...plain('Ember', 'EMBR'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'burn and burnFrom (with an allowance)',
    labels: benign('benign_unusual'),
  },
  h_flash_mint: {
    contract: 'LoanToken',
    ...plain('Loan', 'LOAN'),
    market: 'healthy',
    pattern: 'ERC-3156 flash mints: supply rises inside a loan and falls back',
    labels: benign('benign_unusual'),
  },
  h_limits_only_up: {
    contract: 'RoomyToken',
    ...routed('Roomy', 'ROOMY'),
    market: 'healthy',
    pattern: 'a 3 % max wallet that the owner can only raise or lift',
    labels: benign('benign_unusual'),
  },
  h_one_way_switch: {
    contract: 'OpeningToken',
    ...plain('Opening', 'OPEN'),
    market: 'healthy',
    launch: [{ signature: 'function openTrading()' }],
    pattern: 'trading opens once, at launch, and cannot be closed',
    labels: benign('benign_unusual'),
  },
  h_renounced_blacklist: {
    contract: 'RetiredListToken',
    ...plain('Retired List', 'RLIST'),
    market: 'healthy',
    launch: [renounce],
    pattern: 'a blacklist setter whose owner renounced',
    labels: benign('benign_unusual'),
  },

  // Benign contracts in risky launch state.
  h_plain_rug_ready: {
    contract: 'PlainToken',
    ...plain('Plain Unlocked', 'PLNU'),
    market: 'rug_ready',
    launch: [renounce],
    pattern: 'a plain renounced token; LP kept by the deployer, supply concentrated, only buys',
    labels: benign('benign_plain', LAUNCH_STATE_BAND),
  },
  h_plain_fresh_quiet: {
    contract: 'PlainToken',
    ...plain('Plain Fresh', 'PLNF'),
    market: 'quiet',
    freshDeployer: true,
    launch: [renounce],
    pattern: 'a plain renounced token from a fresh wallet; LP kept, no trading yet',
    labels: benign('benign_plain', { min: 'low', max: 'high' }),
  },
};
