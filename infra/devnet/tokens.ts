import { type Address, parseEther } from 'viem';
import { type ExpectedVerdict, type TokenKey, TokenKind } from './scenarioSchema.ts';

/** Who deploys: each token its own wallet unless two tokens share a history on purpose. */
export type DeployerKey = string;

interface DeployContext {
  router: Address;
  supply: bigint;
  /** Contracts the deployer created first (FeeMath), by name. */
  helpers: Record<string, Address>;
}

/** How the scenario deploys, lists and trades one token, and what a scanner should conclude. */
export interface TokenSpec {
  /** Contract name in infra/devnet/contracts (the implementation, for proxies). */
  contract: string;
  kind: TokenKind;
  name: string;
  symbol: string;
  deployer: DeployerKey;
  constructorArgs?(context: DeployContext): readonly unknown[];
  /** Deployed behind a TransparentUpgradeableProxy whose admin is owned by an EOA or a timelock. */
  proxy?: 'account' | 'timelock';
  /** Helper contracts deployed before the token. */
  helpers?: string[];
  /** Native asset seeded into the WETH pair. */
  liquidityEth: bigint;
  /** LP tokens: burned (sent to 0xdead), locked in the devnet locker, or kept by the deployer. */
  lp: 'burn' | 'lock' | 'keep';
  /** default: 90 % in the pool, 6 % airdropped to 12 holders, 3 % burned, 1 % kept. */
  distribution: 'default' | 'concentrated';
  ownership: 'renounce' | 'keep' | 'lock';
  traders: 'buy-sell' | 'buy-only' | 'none';
  /** Native asset per trader buy (default 0.5 and 0.2). */
  tradeEth?: readonly bigint[];
  /** What happens after trading: the owner blacklists the buyers, or the deployer pulls the liquidity. */
  after?: 'blacklist-traders' | 'pull-liquidity';
  expected: ExpectedVerdict;
}

const POOL_ETH = parseEther('20');

const base = {
  simulable: true,
  honeypot: false,
  sellRevertReason: null,
  cannotBuy: false,
  buyTaxBps: 0,
  sellTaxBps: 0,
  transferTaxBps: 0,
  allowlisted: false,
} as const;

const named = (name: string, symbol: string) => ({
  name,
  symbol,
  constructorArgs: (c: DeployContext) => [name, symbol, c.supply],
});
const withRouter = (name: string, symbol: string) => ({
  name,
  symbol,
  constructorArgs: (c: DeployContext) => [name, symbol, c.supply, c.router],
});
const fees = (name: string, symbol: string, buy: number, sell: number, transfer: number) => ({
  name,
  symbol,
  constructorArgs: (c: DeployContext) => [
    name,
    symbol,
    c.supply,
    c.router,
    BigInt(buy),
    BigInt(sell),
    BigInt(transfer),
  ],
});

/** Defaults of a well-behaved launch; each token changes what it is about. */
const launch = {
  liquidityEth: POOL_ETH,
  lp: 'burn',
  distribution: 'default',
  ownership: 'renounce',
  traders: 'buy-sell',
} as const;

/**
 * The devnet's tokens: for every check at least one token that fails it and tokens that pass it,
 * and benign-but-unusual tokens that must not be called scams. `expected` is the ground truth,
 * written from what each contract does, not from what the scanner says.
 */
export const TOKEN_SPECS: Record<TokenKey, TokenSpec> = {
  clean: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.clean,
    ...named('Clean Token', 'CLEAN'),
    deployer: 'clean',
    expected: { ...base, tier: 'low', flags: [] },
  },
  honeypot: {
    ...launch,
    contract: 'HoneypotToken',
    kind: TokenKind.honeypot,
    ...withRouter('Moon Honey', 'HONEY'),
    deployer: 'honey',
    lp: 'keep',
    ownership: 'keep',
    traders: 'buy-only',
    expected: {
      ...base,
      tier: 'critical',
      honeypot: true,
      sellRevertReason: 'HONEY: sells are paused',
      flags: ['is_honeypot', 'owner_not_renounced', 'lp_unlocked', 'buys_without_sells', 'failed_sells'],
    },
  },
  honey_sibling: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.deployer,
    ...named('Honey Sibling', 'SIB'),
    deployer: 'honey',
    expected: { ...base, tier: 'high', flags: ['honeypot_with_same_creator'] },
  },
  high_tax: {
    ...launch,
    contract: 'FeeToken',
    kind: TokenKind.tax,
    ...fees('Toll Token', 'TOLL', 0, 3_000, 0),
    deployer: 'toll',
    ownership: 'keep',
    expected: { ...base, tier: 'medium', sellTaxBps: 3_000, flags: ['sell_tax', 'owner_not_renounced'] },
  },
  buy_tax: {
    ...launch,
    contract: 'FeeToken',
    kind: TokenKind.tax,
    ...fees('Entry Fee', 'ENTRY', 2_000, 0, 0),
    deployer: 'entry',
    ownership: 'keep',
    expected: { ...base, tier: 'medium', buyTaxBps: 2_000, flags: ['buy_tax', 'owner_not_renounced'] },
  },
  transfer_tax: {
    ...launch,
    contract: 'FeeToken',
    kind: TokenKind.tax,
    ...fees('Wire Fee', 'WIRE', 0, 0, 2_500),
    deployer: 'wire',
    ownership: 'keep',
    expected: {
      ...base,
      tier: 'medium',
      transferTaxBps: 2_500,
      flags: ['transfer_tax', 'owner_not_renounced'],
    },
  },
  low_fee: {
    ...launch,
    contract: 'FeeToken',
    kind: TokenKind.benign,
    ...fees('Fair Fee', 'FAIR', 200, 200, 200),
    deployer: 'fair',
    expected: { ...base, tier: 'low', buyTaxBps: 200, sellTaxBps: 200, transferTaxBps: 200, flags: [] },
  },
  mintable: {
    ...launch,
    contract: 'MintableToken',
    kind: TokenKind.mintable,
    ...named('Printer Token', 'PRINT'),
    deployer: 'printer',
    lp: 'keep',
    ownership: 'keep',
    expected: { ...base, tier: 'critical', flags: ['is_mintable', 'owner_not_renounced', 'lp_unlocked'] },
  },
  renounced_mintable: {
    ...launch,
    contract: 'MintableToken',
    kind: TokenKind.benign,
    ...named('Retired Printer', 'RETIRED'),
    deployer: 'retired',
    expected: { ...base, tier: 'low', flags: ['is_mintable'] },
  },
  fake_renounce: {
    ...launch,
    contract: 'FakeRenounceToken',
    kind: TokenKind.privileged,
    ...named('Ghost Owner', 'GHOST'),
    deployer: 'ghost',
    expected: { ...base, tier: 'critical', flags: ['is_mintable', 'hidden_owner'] },
  },
  reclaimable: {
    ...launch,
    contract: 'ReclaimableToken',
    kind: TokenKind.privileged,
    ...named('Boomerang', 'BOOM'),
    deployer: 'boomerang',
    ownership: 'lock',
    expected: { ...base, tier: 'high', flags: ['can_take_back_ownership'] },
  },
  balance_setter: {
    ...launch,
    contract: 'BalanceSetterToken',
    kind: TokenKind.privileged,
    ...named('Ledger Edit', 'EDIT'),
    deployer: 'editor',
    ownership: 'keep',
    // Setting an insider's balance to any amount raises the supply with it: a mint as well.
    expected: {
      ...base,
      tier: 'critical',
      flags: ['owner_change_balance', 'is_mintable', 'owner_not_renounced'],
    },
  },
  blacklist: {
    ...launch,
    contract: 'BlacklistToken',
    kind: TokenKind.privileged,
    ...named('Door List', 'DOOR'),
    deployer: 'doorman',
    ownership: 'keep',
    // The owner blacklisting a holder stops the holder's sells: a demonstrated limit (vigil-risk/3).
    expected: {
      ...base,
      tier: 'critical',
      flags: ['is_blacklisted', 'sells_blockable', 'owner_not_renounced'],
    },
  },
  whitelist: {
    ...launch,
    contract: 'WhitelistToken',
    kind: TokenKind.privileged,
    ...named('Guest List', 'GUEST'),
    deployer: 'host',
    ownership: 'keep',
    // Whitelist-only mode stops an ordinary holder's sells: a demonstrated limit (vigil-risk/3).
    expected: {
      ...base,
      tier: 'critical',
      flags: ['is_whitelisted', 'sells_blockable', 'owner_not_renounced'],
    },
  },
  pausable: {
    ...launch,
    contract: 'PausableToken',
    kind: TokenKind.privileged,
    ...named('Stop Switch', 'STOP'),
    deployer: 'switch',
    ownership: 'keep',
    expected: {
      ...base,
      tier: 'critical',
      flags: ['transfer_pausable', 'sells_blockable', 'owner_not_renounced'],
    },
  },
  modifiable_fee: {
    ...launch,
    contract: 'ModifiableFeeToken',
    kind: TokenKind.tax,
    ...withRouter('Dial Fee', 'DIAL'),
    deployer: 'dial',
    ownership: 'keep',
    // The owner can raise the sell tax above 10 %: a demonstrated limit (vigil-risk/3).
    expected: {
      ...base,
      tier: 'critical',
      flags: ['slippage_modifiable', 'sells_blockable', 'owner_not_renounced'],
    },
  },
  limits: {
    ...launch,
    contract: 'LimitsToken',
    kind: TokenKind.privileged,
    ...withRouter('Small Steps', 'STEP'),
    deployer: 'steps',
    ownership: 'keep',
    // A limit the owner may set to nothing stops every sale: a demonstrated limit (vigil-risk/3).
    expected: {
      ...base,
      tier: 'critical',
      flags: ['is_anti_whale', 'anti_whale_modifiable', 'sells_blockable', 'owner_not_renounced'],
    },
  },
  cooldown: {
    ...launch,
    contract: 'CooldownToken',
    kind: TokenKind.tax,
    ...withRouter('Slow Lane', 'SLOW'),
    deployer: 'slow',
    expected: { ...base, tier: 'medium', flags: ['trading_cooldown'] },
  },
  sell_limit: {
    ...launch,
    contract: 'SellLimitToken',
    kind: TokenKind.honeypot,
    ...withRouter('Keep Some', 'KEEP'),
    deployer: 'keeper',
    expected: { ...base, tier: 'high', flags: ['cannot_sell_all'] },
  },
  trading_closed: {
    ...launch,
    contract: 'TradingClosedToken',
    kind: TokenKind.honeypot,
    ...withRouter('Closed Door', 'SHUT'),
    deployer: 'closed',
    ownership: 'keep',
    traders: 'none',
    expected: {
      ...base,
      tier: 'high',
      cannotBuy: true,
      flags: ['cannot_buy', 'transfer_pausable', 'owner_not_renounced', 'low_trading_activity'],
    },
  },
  selfdestruct: {
    ...launch,
    contract: 'SelfDestructToken',
    kind: TokenKind.privileged,
    ...named('Vanishing', 'POOF'),
    deployer: 'vanish',
    ownership: 'keep',
    expected: { ...base, tier: 'high', flags: ['selfdestruct', 'owner_not_renounced'] },
  },
  delegating: {
    ...launch,
    contract: 'DelegatingToken',
    kind: TokenKind.privileged,
    name: 'Outsourced',
    symbol: 'OUTS',
    constructorArgs: (c) => ['Outsourced', 'OUTS', c.supply, c.helpers.FeeMath],
    helpers: ['FeeMath'],
    deployer: 'outsourcer',
    expected: { ...base, tier: 'medium', flags: ['external_call'] },
  },
  upgradeable: {
    ...launch,
    contract: 'SimpleUpgradeableToken',
    kind: TokenKind.proxy,
    name: 'Shape Shifter',
    symbol: 'SHIFT',
    proxy: 'account',
    deployer: 'shifter',
    expected: { ...base, tier: 'medium', flags: ['is_proxy'] },
  },
  timelock_proxy: {
    ...launch,
    contract: 'SimpleUpgradeableToken',
    kind: TokenKind.benign,
    name: 'Patient Upgrade',
    symbol: 'WAIT',
    proxy: 'timelock',
    deployer: 'patient',
    expected: { ...base, tier: 'low', flags: ['is_proxy'] },
  },
  stable: {
    ...launch,
    contract: 'StableTokenImpl',
    kind: TokenKind.benign,
    name: 'Devnet Dollar',
    symbol: 'DUSD',
    proxy: 'account',
    deployer: 'issuer',
    ownership: 'keep',
    expected: {
      ...base,
      tier: 'low',
      allowlisted: true,
      flags: [
        'is_proxy',
        'is_mintable',
        'transfer_pausable',
        'is_blacklisted',
        'sells_blockable',
        'owner_not_renounced',
      ],
    },
  },
  no_return: {
    ...launch,
    contract: 'NoReturnToken',
    kind: TokenKind.benign,
    ...named('Silent Tether', 'HUSH'),
    deployer: 'silent',
    expected: { ...base, tier: 'low', flags: [] },
  },
  thin_pool: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.liquidity,
    ...named('Puddle', 'PUDL'),
    deployer: 'puddle',
    liquidityEth: parseEther('0.05'),
    tradeEth: [parseEther('0.002'), parseEther('0.001')],
    expected: { ...base, tier: 'high', flags: ['low_liquidity'] },
  },
  locked_lp: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.liquidity,
    ...named('Vault Lock', 'VAULT'),
    deployer: 'vault',
    lp: 'lock',
    expected: { ...base, tier: 'low', flags: [] },
  },
  concentrated: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.holders,
    ...named('Whale Pond', 'POND'),
    deployer: 'whale',
    distribution: 'concentrated',
    expected: { ...base, tier: 'medium', flags: ['holder_concentration', 'creator_holds_supply'] },
  },
  rug_pulled: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.deployer,
    ...named('Rug One', 'RUG1'),
    deployer: 'rugger',
    lp: 'keep',
    after: 'pull-liquidity',
    expected: {
      ...base,
      tier: 'critical',
      simulable: false,
      flags: [
        'low_liquidity',
        'deployer_rug_history',
        'failed_sells',
        'creator_holds_supply',
        'holder_concentration',
      ],
    },
  },
  rugger_next: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.deployer,
    ...named('Rug Two', 'RUG2'),
    deployer: 'rugger',
    expected: { ...base, tier: 'critical', flags: ['deployer_rug_history'] },
  },
  fresh_deployer: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.deployer,
    ...named('New Kid', 'KID'),
    deployer: 'fresh',
    expected: { ...base, tier: 'low', flags: ['fresh_deployer'] },
  },
  trap: {
    ...launch,
    contract: 'BlacklistToken',
    kind: TokenKind.trading,
    ...named('Lobster Pot', 'POT'),
    deployer: 'trapper',
    ownership: 'keep',
    traders: 'buy-only',
    after: 'blacklist-traders',
    expected: {
      ...base,
      tier: 'critical',
      flags: [
        'is_blacklisted',
        'sells_blockable',
        'owner_not_renounced',
        'buys_without_sells',
        'failed_sells',
      ],
    },
  },
  quiet: {
    ...launch,
    contract: 'CleanToken',
    kind: TokenKind.trading,
    ...named('Ghost Town', 'QUIET'),
    deployer: 'quiet',
    traders: 'none',
    expected: { ...base, tier: 'low', flags: ['low_trading_activity'] },
  },
};

/** Deployers funded after the chain's clock moved on: young wallets. */
export const FRESH_DEPLOYERS: readonly DeployerKey[] = ['fresh'];
