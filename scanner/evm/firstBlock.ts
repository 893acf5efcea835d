/**
 * The lowest block in (low, high] at which a monotone condition holds, given that it holds at
 * `high` and not at `low` (low may be -1 for "before the genesis"). Each round probes `fanOut - 1`
 * blocks in parallel, so the search takes log_fanOut(high - low) rounds of round trips.
 */
export async function firstBlockWhere(
  holds: (block: bigint) => Promise<boolean>,
  low: bigint,
  high: bigint,
  fanOut: number,
): Promise<bigint> {
  while (high - low > 1n) {
    const span = high - low;
    const probes = [
      ...new Set(Array.from({ length: fanOut - 1 }, (_, i) => low + (span * BigInt(i + 1)) / BigInt(fanOut))),
    ].filter((block) => block > low && block < high);
    if (probes.length === 0) break;
    const results = await Promise.all(probes.map(holds));
    const first = results.indexOf(true);
    if (first === -1) low = probes[probes.length - 1] ?? low;
    else {
      high = probes[first] ?? high;
      if (first > 0) low = probes[first - 1] ?? low;
    }
  }
  return high;
}
