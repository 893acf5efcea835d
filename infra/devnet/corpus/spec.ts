import type { Address } from 'viem';
import type { CorpusLabels, HarmClass, MarketPreset } from './schema.ts';

/** What a corpus token's constructor and setup calls can refer to. */
export interface CorpusContext {
  /** 1e9 tokens of 18 decimals, as every scenario token. */
  supply: bigint;
  router: Address;
  /** The wallet that deploys the token. */
  deployer: Address;
  /** A wallet derived from a label (`corpus.<label>`): the same on every run, holding nothing. */
  wallet(label: string): Address;
  /** Helper contracts deployed before the token, by the name its spec gave them. */
  helpers: Record<string, Address>;
}

/** After the token exists: its address and pair, the traders, contracts deployed for it. */
export interface CorpusLiveContext extends CorpusContext {
  token: Address;
  pair: Address;
  traders: readonly Address[];
  /** Implementations deployed for an upgrade, by contract name. */
  implementations: Record<string, Address>;
}

/** A transaction the setup sends: a human-readable ABI signature and its arguments. */
export interface CorpusCall {
  signature: string;
  args?(context: CorpusLiveContext): readonly unknown[];
  /** A wallet label (funded and impersonated); the deployer when absent. */
  from?: string;
  /**
   * `proxyAdmin`: the proxy's admin contract (OpenZeppelin's ProxyAdmin); `helper:<name>`: a helper
   * the spec deployed; the token by default.
   */
  to?: 'token' | 'proxyAdmin' | `helper:${string}`;
  /** Wei sent with the call (a payable function). */
  value?: bigint;
  /** In a proof: the clock moved on by this many seconds before the step (a wait it needs). */
  afterSeconds?: number;
  /** In a proof: this many blocks mined before the step. */
  afterBlocks?: number;
}

/**
 * How the author shows a label holds: calls sent (on a fork of the devnet) after moving the
 * clock on by `afterSeconds`; then the class's effect must show on the first trader, an ordinary
 * holder: the supply rose, or the callers' balances rose beyond it (mint); the trader's balance
 * fell, or the pool's fell with no swap paying for it (leak); or the trader's sell reverts or
 * loses more than 10 % to the token (limit). No steps: the effect is there already, or comes
 * with time alone.
 */
export interface HarmProof {
  steps: CorpusCall[];
  afterSeconds?: number;
  /**
   * The steps before this index set the stage (the market's taxed trades, say) and the effect is
   * measured from after them: a power over balances that trading moved first.
   */
  measureFrom?: number;
}

export interface CorpusTokenSpec {
  contract: string;
  name: string;
  symbol: string;
  /** Constructor arguments; none when the contract sits behind a proxy. */
  args?(context: CorpusContext): readonly unknown[];
  /** Contracts deployed first, by the deployer, and named for `helpers` in the context. */
  helpers?: { name: string; contract: string; args?(context: CorpusContext): readonly unknown[] }[];
  /**
   * Behind OpenZeppelin's TransparentUpgradeableProxy, initialised with
   * initialize(name, symbol, supply, deployer); its admin owned by the deployer or a two-day
   * timelock. `upgrade` deploys that implementation and upgrades to it after trading.
   */
  proxy?: { admin: 'deployer' | 'timelock'; upgrade?: { contract: string; initialize?: CorpusCall } };
  market: MarketPreset;
  /** Funded after the chain's clock moved on: a young wallet. */
  freshDeployer?: boolean;
  /** Sent after listing and the airdrop (a renounce, opening trading...). */
  launch?: CorpusCall[];
  /** Sent after the traders bought and sold (blocking buyers, an upgrade...). */
  after?: CorpusCall[];
  /** The trick (or the unusual mechanic), in words. */
  pattern: string;
  labels: CorpusLabels;
  /** One proof for every class the labels claim. */
  proofs?: Partial<Record<HarmClass, HarmProof>>;
}

const critical = { min: 'critical', max: 'critical' } as const;

/** Labels of a scam: the classes it lets an insider use; a demonstrated power is top band. */
export function scam(...classes: HarmClass[]): CorpusLabels {
  return {
    mint: classes.includes('mint'),
    leak: classes.includes('leak'),
    limit: classes.includes('limit'),
    tier: critical,
    group: 'scam',
  };
}

/**
 * Labels of a benign token: no class. With a healthy market it belongs in the lowest tier; with
 * risky launch state it sits above that, but never in the band of a demonstrated power.
 */
export function benign(
  group: 'benign_unusual' | 'benign_plain',
  tier: CorpusLabels['tier'] = { min: 'low', max: 'low' },
): CorpusLabels {
  return { mint: false, leak: false, limit: false, tier, group };
}

/** The launch-state band: above the lowest tier, below a demonstrated power's. */
export const LAUNCH_STATE_BAND: CorpusLabels['tier'] = { min: 'medium', max: 'high' };

export const renounce: CorpusCall = { signature: 'function renounceOwnership()' };
