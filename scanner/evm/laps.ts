/**
 * A stopwatch for steps that run one after the other: each call records, under the step's name,
 * the wall time since the previous call (or since the stopwatch was made), in whole milliseconds.
 */
export function lapTimer(into: Record<string, number>): (step: string) => void {
  let lap = performance.now();
  return (step) => {
    const now = performance.now();
    into[step] = Math.round(now - lap);
    lap = now;
  };
}
