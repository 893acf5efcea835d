/** Polls `probe` until it returns a value (not undefined), or fails after the deadline. No fixed sleeps. */
export async function until<T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`condition not met within ${timeoutMs} ms${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Waits, if the wall-clock minute ends within `marginMs`, for the next one to begin: rate limits
 * count in fixed minute windows, and a test whose requests straddle a window's end sees the count
 * start again (four requests under a cap of three all answered).
 */
export async function awayFromMinuteEdge(marginMs = 5_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
