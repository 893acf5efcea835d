import type { Scenario } from '../devnet/scenario.ts';

interface DemoJob {
  status: string;
  job_id: string;
  result: { risk_score: number | null; tier: string; flags: { id: string; detail: string }[] } | null;
  error: { reason: string; message: string } | null;
}

interface Problem {
  status: number;
  title: string;
  detail?: string;
}

export interface DemoOptions {
  api: string;
  /** Sent as X-API-Key: the demo's scans count against that key's caps, not the anonymous ones. */
  apiKey: string;
  scenario: Scenario;
  solanaMints: Record<string, string>;
  say: (line: string) => void;
  concurrency?: number;
}

/** How often one scan is retried after a 429, waiting what Retry-After says each time. */
const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_WAIT_S = 60;
/**
 * A scan still pending or running when its POST's wait ends (a loaded machine, the stack's own
 * start-up indexing beside it) is followed by its status URL until it ends, for this long.
 */
const FOLLOW_MS = 240_000;
const FOLLOW_INTERVAL_MS = 2_000;

/** The main job on the embedded stack: scan the seeded tokens through the API and print verdicts. */
export async function runDemo(options: DemoOptions): Promise<void> {
  const { api, apiKey, scenario, solanaMints, say } = options;
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
  const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  const follow = async (job: DemoJob): Promise<DemoJob | Problem> => {
    const deadline = Date.now() + FOLLOW_MS;
    let current: DemoJob | Problem = job;
    while ('job_id' in current && !current.result && !current.error && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS));
      const response = await fetch(`${api}/api/v2/scanner/scans/${encodeURIComponent(job.job_id)}`, {
        headers,
      });
      // Status reads count against the key's rate like the scans: over it, wait and read again.
      if (response.status === 429)
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(response)));
      else current = (await response.json()) as DemoJob | Problem;
    }
    return current;
  };
  const scan = async (chain: string, address: string): Promise<DemoJob | Problem> => {
    const answer = await post(chain, address);
    return 'job_id' in answer && !answer.result && !answer.error ? follow(answer) : answer;
  };
  const post = async (chain: string, address: string): Promise<DemoJob | Problem> => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(`${api}/api/v2/scanner/scans`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ chain, address, wait_ms: 60_000 }),
      });
      const body = (await response.json()) as DemoJob | Problem;
      if (response.status !== 429 || attempt === RATE_LIMIT_RETRIES) return body;
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs(response)));
    }
  };
  const outcomes = new Array<DemoJob | Problem>(entries.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < entries.length; index = next++) {
      const entry = entries[index];
      if (entry) outcomes[index] = await scan(entry[1], entry[2]);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, lane));
  entries.forEach(([key], index) => {
    const outcome = outcomes[index];
    say(`  ${key.padEnd(18)} ${outcome ? describe(outcome) : 'not scanned'}`);
  });
}

function describe(outcome: DemoJob | Problem): string {
  if ('title' in outcome)
    return `${outcome.status} ${outcome.title}${outcome.detail ? `: ${outcome.detail}` : ''}`;
  if (outcome.result) {
    const flags = outcome.result.flags.map((flag) => flag.id).join(', ') || 'none';
    return `risk ${String(outcome.result.risk_score).padStart(3)}  ${outcome.result.tier.padEnd(8)} flags: ${flags}`;
  }
  const error = outcome.error ? `: ${outcome.error.reason} ${outcome.error.message}` : '';
  return `${outcome.status}${error} (${outcome.job_id})`;
}

function retryAfterMs(response: Response): number {
  return Math.min(Number(response.headers.get('retry-after') ?? '1') || 1, MAX_RETRY_WAIT_S) * 1000;
}
