import { type Address, isAddress } from 'viem';
import { z } from 'zod';
import { corpusTokenSchema } from './corpus/schema.ts';

// Kept free of deploy code so services and tests can read a scenario file without pulling in
// the compiler.

const address = z.custom<Address>((value) => typeof value === 'string' && isAddress(value), {
  message: 'expected a 0x-prefixed, 20-byte address',
});

/** Every token the devnet deploys, by its key in `Scenario.tokens`. */
export const TOKEN_KEYS = [
  'clean',
  'honeypot',
  'honey_sibling',
  'high_tax',
  'buy_tax',
  'transfer_tax',
  'low_fee',
  'mintable',
  'renounced_mintable',
  'fake_renounce',
  'reclaimable',
  'balance_setter',
  'blacklist',
  'whitelist',
  'pausable',
  'modifiable_fee',
  'limits',
  'cooldown',
  'sell_limit',
  'trading_closed',
  'selfdestruct',
  'delegating',
  'upgradeable',
  'timelock_proxy',
  'stable',
  'no_return',
  'thin_pool',
  'locked_lp',
  'concentrated',
  'rug_pulled',
  'rugger_next',
  'fresh_deployer',
  'trap',
  'quiet',
] as const;
export type TokenKey = (typeof TOKEN_KEYS)[number];

/** What kind of token it is: a trap, or benign (possibly unusual). */
export const TokenKind = {
  clean: 'clean',
  honeypot: 'honeypot',
  tax: 'tax',
  mintable: 'mintable',
  privileged: 'privileged',
  proxy: 'proxy',
  liquidity: 'liquidity',
  holders: 'holders',
  deployer: 'deployer',
  trading: 'trading',
  benign: 'benign',
} as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

export const ExpectedTier = z.enum(['low', 'medium', 'high', 'critical']);

/** The ground truth a scanner should arrive at for a token. */
export const expectedVerdictSchema = z.object({
  /** The tier band a trader should see. */
  tier: ExpectedTier,
  /** Every check that should fail, by check id (scanner/core/checks.ts). */
  flags: z.array(z.string()),
  /** Whether a round-trip simulation means anything (false: the pool was drained). */
  simulable: z.boolean(),
  honeypot: z.boolean(),
  /** The token's own revert reason for a sell, when sells fail. */
  sellRevertReason: z.string().nullable(),
  cannotBuy: z.boolean(),
  buyTaxBps: z.number().int().min(0).max(10_000),
  sellTaxBps: z.number().int().min(0).max(10_000),
  transferTaxBps: z.number().int().min(0).max(10_000),
  /** On the devnet's allowlist (TOKEN_ALLOWLIST_DEVNET). */
  allowlisted: z.boolean(),
});
export type ExpectedVerdict = z.infer<typeof expectedVerdictSchema>;

export const scenarioTokenSchema = z.object({
  address,
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(255),
  kind: z.enum(TokenKind),
  /** The token's WETH pair on the scenario's DEX. */
  pair: address,
  expected: expectedVerdictSchema,
});
export type ScenarioToken = z.infer<typeof scenarioTokenSchema>;

export const scenarioSchema = z.object({
  chainId: z.number().int().positive(),
  /** First block holding a scenario transaction: where indexers should start. */
  deployedAtBlock: z.number().int().nonnegative(),
  dex: z.object({ name: z.literal('uniswap-v2'), factory: address, router: address, weth: address }),
  deployer: address,
  /** The wallet that deployed each token. */
  deployers: z.record(z.string(), address),
  /** Dev accounts that bought and sold, so the tokens have trading history. */
  traders: z.array(address),
  tokens: z.record(z.enum(TOKEN_KEYS), scenarioTokenSchema),
  /** The adversarial corpus (infra/devnet/corpus): labelled by harm class, held-out or tuning. */
  corpus: z.record(z.string(), corpusTokenSchema),
  /** Tokens an operator lists as blue chips: pass them as TOKEN_ALLOWLIST_DEVNET. */
  allowlist: z.array(address),
});
export type Scenario = z.infer<typeof scenarioSchema>;

/** Every address that must still hold code for a saved scenario to be reusable. */
export function scenarioContracts(scenario: Scenario): Address[] {
  const tokens = [...Object.values(scenario.tokens), ...Object.values(scenario.corpus)].flatMap((token) => [
    token.address,
    token.pair,
  ]);
  return [scenario.dex.factory, scenario.dex.router, scenario.dex.weth, ...tokens];
}
