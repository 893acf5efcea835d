import { z } from 'zod';
import type { Candle, HolderPoint, LiquidityPoint, Trade } from './series.ts';

export const SignalKind = {
  liquidityPulled: 'liquidity_pulled',
  holderConcentrationJump: 'holder_concentration_jump',
  deployerSells: 'deployer_sells',
  volumeSpikeWithoutHolders: 'volume_spike_without_holders',
} as const;
export type SignalKind = (typeof SignalKind)[keyof typeof SignalKind];

export const ThreatSignal = z.object({
  kind: z.enum(Object.values(SignalKind) as [SignalKind, ...SignalKind[]]),
  severity: z.enum(['medium', 'high']),
  block: z.number().int(),
  tx: z.string(),
  detail: z.string(),
});
export type ThreatSignal = z.infer<typeof ThreatSignal>;

/** Thresholds, named so the docs and the tests speak of the same numbers. */
export const SIGNAL_THRESHOLDS = {
  /** A pool losing at least this share of its paired reserve in one change. */
  liquidityDrop: 0.5,
  /** The top-10 share rising by at least this many points (0..1) between two holder points. */
  concentrationJump: 0.2,
  /** A candle's volume this many times the median candle volume... */
  volumeSpike: 3,
} as const;

export interface SignalInputs {
  trades: readonly Trade[];
  liquidity: readonly LiquidityPoint[];
  holders: readonly HolderPoint[];
  candles: readonly Candle[];
  deployer: string | null;
}

/** Threat signals over a token's history, each pinned to the block and transaction it saw. */
export function threatSignals(inputs: SignalInputs): ThreatSignal[] {
  const signals: ThreatSignal[] = [];
  const lastByPool = new Map<string, LiquidityPoint>();
  for (const point of inputs.liquidity) {
    const previous = lastByPool.get(point.pool);
    lastByPool.set(point.pool, point);
    if (!previous || previous.paired_reserve <= 0) continue;
    const drop = 1 - point.paired_reserve / previous.paired_reserve;
    if (drop >= SIGNAL_THRESHOLDS.liquidityDrop) {
      signals.push({
        kind: SignalKind.liquidityPulled,
        severity: 'high',
        block: point.block,
        tx: point.tx,
        detail: `Pool ${point.pool} lost ${(drop * 100).toFixed(0)}% of its paired reserve in one change.`,
      });
    }
  }
  for (let i = 1; i < inputs.holders.length; i++) {
    const previous = inputs.holders[i - 1];
    const point = inputs.holders[i];
    if (!previous || !point || previous.holders < 2) continue;
    const jump = point.top10_share - previous.top10_share;
    if (jump >= SIGNAL_THRESHOLDS.concentrationJump) {
      signals.push({
        kind: SignalKind.holderConcentrationJump,
        severity: 'medium',
        block: point.block,
        tx: point.tx,
        detail: `The ten largest holders went from ${(previous.top10_share * 100).toFixed(0)}% to ${(point.top10_share * 100).toFixed(0)}% of the supply.`,
      });
    }
  }
  const deployer = inputs.deployer?.toLowerCase();
  if (deployer) {
    for (const trade of inputs.trades) {
      if (trade.side !== 'sell' || trade.trader.toLowerCase() !== deployer) continue;
      signals.push({
        kind: SignalKind.deployerSells,
        severity: 'high',
        block: trade.block,
        tx: trade.tx,
        detail: `The deployer sold ${trade.volume.toPrecision(4)} tokens.`,
      });
    }
  }
  const volumes = inputs.candles.map((candle) => candle.volume).sort((a, b) => a - b);
  const median = volumes[Math.floor(volumes.length / 2)] ?? 0;
  for (const candle of inputs.candles) {
    if (volumes.length < 3 || median <= 0 || candle.volume < SIGNAL_THRESHOLDS.volumeSpike * median) continue;
    const before = lastAtOrBefore(inputs.holders, candle.first_block - 1)?.holders ?? 0;
    const after = lastAtOrBefore(inputs.holders, candle.last_block)?.holders ?? 0;
    // ...while the holder count does not grow: volume churned among the same wallets.
    if (after > before) continue;
    signals.push({
      kind: SignalKind.volumeSpikeWithoutHolders,
      severity: 'medium',
      block: candle.last_block,
      tx: '',
      detail: `Volume ${(candle.volume / median).toFixed(1)}× the median candle while holders went from ${before} to ${after}.`,
    });
  }
  return signals.sort((a, b) => a.block - b.block);
}

function lastAtOrBefore(points: readonly HolderPoint[], block: number): HolderPoint | undefined {
  let found: HolderPoint | undefined;
  for (const point of points) {
    if (point.block > block) break;
    found = point;
  }
  return found;
}
