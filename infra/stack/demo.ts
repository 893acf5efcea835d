import type { Scenario } from '../devnet/scenario.ts';

interface DemoJob {
  status: string;
  job_id: string;
  result: { risk_score: number | null; tier: string; flags: { id: string; detail: string }[] } | null;
  error: { reason: string; message: string } | null;
}

/** The main job on the embedded stack: scan the seeded tokens through the API and print verdicts. */
export async function runDemo(
  api: string,
  scenario: Scenario,
  solanaMints: Record<string, string>,
  say: (line: string) => void,
): Promise<void> {
  say('demo: scanning the devnet tokens and Solana mints through POST /api/v2/scanner/scans ...');
  const entries: [string, string, string][] = [
    ...Object.entries(scenario.tokens).map(([key, token]): [string, string, string] => [
      key,
      'devnet',
      token.address,
    ]),
    ...Object.entries(solanaMints).map(([key, address]): [string, string, string] => [
      key,
      'solana_devnet',
      address,
    ]),
  ];
  const jobs = await Promise.all(
    entries.map(async ([key, chain, address]) => {
      const response = await fetch(`${api}/api/v2/scanner/scans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain, address, wait_ms: 60_000 }),
      });
      return { key, job: (await response.json()) as DemoJob };
    }),
  );
  for (const { key, job } of jobs) {
    if (job.result) {
      const flags = job.result.flags.map((flag) => flag.id).join(', ') || 'none';
      say(
        `  ${key.padEnd(18)} risk ${String(job.result.risk_score).padStart(3)}  ${job.result.tier.padEnd(8)} flags: ${flags}`,
      );
    } else {
      say(
        `  ${key.padEnd(18)} ${job.status}${job.error ? `: ${job.error.reason} ${job.error.message}` : ''} (${job.job_id})`,
      );
    }
  }
}
