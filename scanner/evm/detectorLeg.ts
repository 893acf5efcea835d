import type { Hex } from 'viem';
import { decodeRevertReason } from './decodeRevertReason.ts';

/** One step the detector contract took (a buy, a transfer, a sell), as measured inside the call. */
export interface DetectorLeg {
  /** False when an earlier step left nothing to do (no pair, a failed buy, nothing bought). */
  attempted: boolean;
  ok: boolean;
  /** Buy: wei spent. Transfer and sell: raw token units sent. */
  amountIn: bigint;
  /**
   * What a token without taxes would deliver for amountIn: buy, tokens (the router's quote);
   * transfer, tokens (amountIn itself); sell, wei (the router's quote).
   */
  expected: bigint;
  received: bigint;
  /**
   * (expected - received) / expected in basis points, when the leg succeeded and expected > 0.
   * A sell compares wei at the pre-sell reserves, so for a taxed token the pool's curve moves the
   * figure slightly below the true rate (by about the rate times the trade's share of the pool).
   */
  taxBps: number | null;
  /** Gas the leg used inside the simulation; it varies with pool state, so compare loosely. */
  gasUsed: bigint;
  /** Readable revert reason; for a sell, the token's own reason when it has one. */
  revertReason: string | null;
  revertData: Hex | null;
}

/** A leg as the detector's ABI returns it. */
export interface RawLeg {
  attempted: boolean;
  ok: boolean;
  amountIn: bigint;
  expected: bigint;
  received: bigint;
  gasUsed: bigint;
  revertData: Hex;
}

export function toLeg(raw: RawLeg): DetectorLeg {
  const failed = raw.attempted && !raw.ok;
  return {
    attempted: raw.attempted,
    ok: raw.ok,
    amountIn: raw.amountIn,
    expected: raw.expected,
    received: raw.received,
    taxBps:
      raw.ok && raw.expected > 0n ? Number(((raw.expected - raw.received) * 10_000n) / raw.expected) : null,
    gasUsed: raw.gasUsed,
    revertReason: failed ? decodeRevertReason(raw.revertData) : null,
    revertData: failed ? raw.revertData : null,
  };
}

/** JSON-safe form of a leg: raw integer amounts as decimal strings. */
export interface DetectorLegJson extends Omit<DetectorLeg, 'amountIn' | 'expected' | 'received' | 'gasUsed'> {
  amountIn: string;
  expected: string;
  received: string;
  gasUsed: string;
}

export function legToJson(value: DetectorLeg): DetectorLegJson {
  return {
    ...value,
    amountIn: value.amountIn.toString(),
    expected: value.expected.toString(),
    received: value.received.toString(),
    gasUsed: value.gasUsed.toString(),
  };
}
