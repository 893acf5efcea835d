/**
 * USD prices to a token's atomic units without floating-point drift: prices are whole
 * micro-dollars (the catalog's prices have at most 6 decimals), scaled to the token's decimals.
 */
export function usdToAtomic(usd: number, decimals: number): bigint {
  const micros = Math.round(usd * 1_000_000);
  if (!Number.isFinite(usd) || usd < 0 || Math.abs(usd * 1_000_000 - micros) > 1e-6) {
    throw new Error(`price ${usd} USD is not a whole number of micro-dollars`);
  }
  return decimals >= 6
    ? BigInt(micros) * 10n ** BigInt(decimals - 6)
    : BigInt(micros) / 10n ** BigInt(6 - decimals);
}

/** Atomic units back to a decimal string (for people; never for arithmetic). */
export function formatAtomic(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${amount / scale}${fraction ? `.${fraction}` : ''}`;
}
