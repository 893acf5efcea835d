import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { mintPaymentToken, paymentTokenBalance } from '../../infra/devnet/paymentToken.ts';
import { DevnetPayments } from '../../infra/devnet/payments.ts';
import { payerClient } from '../support/payments.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';
import { CHECK_CATALOG_PATH, checkCatalogDocument } from '../../retrieval/catalog/checkCatalog.ts';
import { until } from '../support/until.ts';

interface StackFile {
  state: string;
  urls: {
    api: string;
    scraper: string;
    retrieval: string;
    temporal: string;
    temporal_ui: string | null;
    facilitator: string;
    devnet_rpc: string;
  };
  tokens: Record<string, { address: string }>;
  solana_mints: Record<string, string>;
  api_key: string;
  processes: { name: string; pid: number | null; state: string; restarts: number }[];
}

interface Job {
  job_id: string;
  status: string;
  result: { tier: string; risk_score: number; gates: string[]; flags: { id: string }[] } | null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm start`'s launcher as a user runs it, on free ports and a throwaway data folder. */
async function startStack(
  dataDir: string,
  ports: Record<string, number>,
  options: { demo?: boolean; onReady?: (output: string) => void; env?: Record<string, string> } = {},
): Promise<ManagedProcess> {
  // Every store local: whatever the outer environment points at is not used here.
  const inherited = { ...process.env };
  for (const name of [
    'TEMPORAL_ADDRESS',
    'REDIS_URL',
    'MONGODB_URI',
    'RPC_URLS_DEVNET',
    'RPC_URLS_SOLANA_DEVNET',
    'TOKEN_ALLOWLIST_DEVNET',
    'PUBLIC_URL',
    'NEWS_FEEDS',
  ])
    delete inherited[name];
  return spawnService({
    name: 'stack',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'infra', 'stack', 'start.ts')],
    env: {
      ...inherited,
      VIGIL_DATA_DIR: dataDir,
      VIGIL_DEMO: options.demo ? '1' : '0',
      // The docs' ingest embeds ~200 long chunks; the test ingests the small check catalog itself.
      VIGIL_KNOWLEDGE: '0',
      PORT: String(ports.api),
      VIGIL_TEMPORAL_PORT: String(ports.temporal),
      VIGIL_TEMPORAL_UI_PORT: String(ports.ui),
      VIGIL_REDIS_PORT: String(ports.redis),
      VIGIL_MONGO_PORT: String(ports.mongo),
      VIGIL_ANVIL_PORT: String(ports.anvil),
      VIGIL_FACILITATOR_PORT: String(ports.facilitator),
      VIGIL_SCRAPER_PORT: String(ports.scraper),
      VIGIL_RETRIEVAL_PORT: String(ports.retrieval),
      VIGIL_SOLANA_PORT: String(ports.solana),
      ...(ports.mcp ? { VIGIL_MCP_PORT: String(ports.mcp) } : {}),
      ...(ports.news ? { VIGIL_NEWS_PORT: String(ports.news) } : {}),
      ...options.env,
    },
    readyTimeoutMs: 180_000,
    ready: (output) => {
      if (output.includes('failed to start')) throw new Error(output);
      const ready = output.includes('running; Ctrl-C');
      if (ready) options.onReady?.(output);
      return Promise.resolve(ready);
    },
  });
}

describe('the embedded stack (npm start)', () => {
  let dataDir = '';
  // A failed assertion leaves a stack up: stopped before its folder goes.
  const started: ManagedProcess[] = [];
  afterAll(async () => {
    for (const stack of started) await stack.stop(60_000);
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('comes up, scans the seeded honeypot and clean token over HTTP, stops without orphans, and restarts on its saved state', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-e2e-'));
    const ports = {
      api: await freePort(),
      temporal: await freePort(),
      ui: await freePort(),
      redis: await freePort(),
      mongo: await freePort(),
      anvil: await freePort(),
      facilitator: await freePort(),
      scraper: await freePort(),
      retrieval: await freePort(),
      solana: await freePort(),
      mcp: await freePort(),
      news: await freePort(),
    };
    let output = '';
    const stack = await startStack(dataDir, ports, { demo: true, onReady: (text) => (output = text) });
    started.push(stack);
    const info = JSON.parse(await readFile(path.join(dataDir, 'stack.json'), 'utf8')) as StackFile;
    expect(info.state).toBe('running');
    // The demo scanned every seeded token with the stack's own key: a verdict line for each.
    const verdicts = output.split('\n').filter((line) => /^\[vigil\] {3}\S+ +risk +\d+ /.test(line));
    // On failure, the demo's lines that are not verdicts say what happened to those scans.
    expect(
      verdicts,
      output
        .split('\n')
        .filter((line) => line.startsWith('[vigil]'))
        .join('\n'),
    ).toHaveLength(Object.keys(info.tokens).length + Object.keys(info.solana_mints).length);
    expect(output).toMatch(/\[vigil\] {3}honeypot +risk +\d+ +critical/);
    const limited = await fetch(`${info.urls.api}/api/v1/x402/pricing`, {
      headers: { 'x-api-key': info.api_key },
    });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('60');
    expect(info.urls.api).toBe(`http://127.0.0.1:${ports.api}`);
    expect((await fetch(info.urls.temporal_ui ?? '')).status).toBe(200);
    // Payments are wired: the stack's own facilitator is live and a tool without trial is quoted.
    const facilitator = (await (
      await fetch(`${info.urls.api}/api/v1/x402/facilitator-health/status/vigil`)
    ).json()) as { status: string };
    expect(facilitator.status).toBe('live');
    const quote = await fetch(`${info.urls.api}/api/v1/x402-tools/token_risk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'devnet', address: info.tokens.clean?.address }),
    });
    expect(quote.status).toBe(402);
    expect(quote.headers.get('payment-required')).toBeTruthy();
    // Solana beside EVM: the local Solana devnet's mint, with the facilitator's fee payer.
    const accepts = (
      (await quote.json()) as { accepts: { network: string; extra: Record<string, unknown> }[] }
    ).accepts;
    expect(accepts.map((option) => option.network)).toEqual([
      'eip155:31337',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    ]);
    expect(typeof accepts[1]?.extra.feePayer).toBe('string');
    // The official client pays it through the stack's facilitator (which the backend and the
    // payments pool reach with their caller tokens, and nobody else can ask to settle).
    const devnetPayments = DevnetPayments.parse(
      JSON.parse(await readFile(path.join(dataDir, 'devnet', 'payments.json'), 'utf8')),
    );
    const payerKey = generatePrivateKey();
    const payer = privateKeyToAccount(payerKey);
    await mintPaymentToken(info.urls.devnet_rpc, devnetPayments.token, [
      { to: payer.address, amount: 100_000n },
    ]);
    const paid = await wrapFetchWithPayment(fetch, payerClient(payerKey, devnetPayments.token))(
      `${info.urls.api}/api/v1/x402-tools/honeypot_check`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'devnet', address: info.tokens.honeypot?.address }),
      },
    );
    expect(paid.status).toBe(200);
    expect(await paymentTokenBalance(info.urls.devnet_rpc, devnetPayments.token.address, payer.address)).toBe(
      90_000n,
    );
    const anonymous = await fetch(`${info.urls.facilitator}/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    // Files holding keys and tokens, and the folder they are in, are the owner's alone.
    const modes = await Promise.all(
      [
        '',
        'stack.json',
        'local-api-key',
        path.join('devnet', 'payments.json'),
        path.join('devnet', 'solana-payments.json'),
      ].map(async (file) => ({ file, mode: (await stat(path.join(dataDir, file))).mode & 0o077 })),
    );
    expect(modes).toEqual(modes.map(({ file }) => ({ file, mode: 0 })));
    // The scraper service is up, and the worker process runs its pool (the browser starts on first use).
    const scraperHealth = (await (await fetch(`${info.urls.scraper}/healthz`)).json()) as {
      stores: { name: string; status: string }[];
      browser_pools: { launched: boolean }[];
    };
    expect(scraperHealth.stores.every((store) => store.status === 'up')).toBe(true);
    expect(scraperHealth.browser_pools.length).toBeGreaterThanOrEqual(1);

    const scan = async (address: string, chain = 'devnet') => {
      const response = await fetch(`${info.urls.api}/api/v2/scanner/scans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': info.api_key },
        body: JSON.stringify({ chain, address, wait_ms: 30_000 }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as Job;
    };
    const [honeypot, clean, stable, solanaMint] = await Promise.all([
      scan(info.tokens.honeypot?.address ?? ''),
      scan(info.tokens.clean?.address ?? ''),
      scan(info.tokens.stable?.address ?? ''),
      scan(info.solana_mints.sol_mintable ?? '', 'solana_devnet'),
    ]);
    // The launcher puts the scenario's stablecoin on the allowlist and serves the Solana devnet.
    expect(stable.result?.tier).toBe('low');
    expect(solanaMint.result?.tier).toBe('critical');
    expect(solanaMint.result?.gates).toEqual(['is_mintable']);
    expect(honeypot.result?.tier).toBe('critical');
    expect(honeypot.result?.gates).toEqual(['is_honeypot']);
    expect(clean.result?.tier).toBe('low');
    expect(clean.result?.flags).toEqual([]);

    // The devnet is indexed from genesis and followed: the scenario's tokens are in the catalog.
    const indexed = await until(
      async () => {
        const body = (await (
          await fetch(`${info.urls.api}/api/v1/catalog/tokens/devnet/${info.tokens.clean?.address}`)
        ).json()) as {
          data: { deployer: string; pools: unknown[] } | null;
        };
        return body.data ?? undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(indexed.pools).toHaveLength(1);
    const stats = (await (await fetch(`${info.urls.api}/api/v1/catalog/stats`)).json()) as {
      chains: { chain: string; blocks: number; last_block: number }[];
    };
    const devnet = stats.chains.find((chain) => chain.chain === 'devnet');
    expect(devnet?.blocks).toBe((devnet?.last_block ?? -1) + 1);
    // The retrieval service and the ingest pool of the stack answer what a check means, with its source.
    const ingest = await fetch(
      `${info.urls.retrieval}/v1/ingest?doc_id=${CHECK_CATALOG_PATH}&source=${CHECK_CATALOG_PATH}&category=risk`,
      { method: 'POST', headers: { 'content-type': 'text/markdown' }, body: checkCatalogDocument() },
    );
    expect(ingest.status).toBe(202);
    const { status_url: statusUrl } = (await ingest.json()) as { status_url: string };
    const ingested = await until(
      async () => {
        const job = (await (await fetch(`${info.urls.retrieval}${statusUrl}`)).json()) as {
          status: string;
          outcome: string | null;
        };
        return job.status === 'running' ? undefined : job;
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    expect(ingested).toMatchObject({ status: 'completed', outcome: 'indexed' });
    const answer = await fetch(`${info.urls.retrieval}/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'what does lp_unlocked mean?', top_k: 3 }),
    });
    const { hits } = (await answer.json()) as { hits: { source: string; text: string }[] };
    expect(hits[0]?.source).toMatch(/^scanner\/core\/checks\.ts#L\d+-L\d+$/);
    expect(hits[0]?.text).toContain('lp_unlocked');

    // News: the local desk's feeds, read through the scraper by the schedule's first round at
    // start; a round triggered now (the demo has scanned the tokens since) links them.
    const temporal = await Connection.connect({ address: info.urls.temporal });
    try {
      await new Client({ connection: temporal }).schedule.getHandle('news-feeds').trigger();
    } finally {
      await temporal.close();
    }
    const news = await until(
      async () => {
        const response = await fetch(`${info.urls.api}/api/v1/x402-tools/get_news_sentiment`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-api-key': info.api_key,
            'x-client-id': 'e2e-news-reader',
          },
          body: JSON.stringify({ token: info.tokens.honeypot?.address }),
        });
        const body = (await response.json()) as {
          data: { items: { title: string; sentiment: { label: string } }[] } | null;
        };
        return body.data?.items.length ? body.data : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(news.items.map((item) => item.sentiment.label)).toContain('negative');
    // New items are indexed for retrieval too, as documents of category news.
    const newsHit = await until(
      async () => {
        const response = await fetch(`${info.urls.retrieval}/v1/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'holders cannot sell', top_k: 3, filters: { category: 'news' } }),
        });
        const { hits } = (await response.json()) as { hits?: { doc_id: string; text: string }[] };
        return hits?.[0];
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    expect(newsHit.doc_id).toMatch(/^news\//);

    const pids = info.processes.map((entry) => entry.pid).filter((pid): pid is number => pid !== null);
    expect(pids.length).toBeGreaterThanOrEqual(6);
    await stack.stop(60_000);
    expect(pids.filter(alive)).toEqual([]);

    // Second start: same devnet contracts, and the first run's jobs still answer (Temporal,
    // MongoDB and the chain all kept their state).
    // The first run's demo spent this minute's Pro-tier calls of the stack's key.
    const again = await startStack(dataDir, ports, { env: { RATE_LIMIT_PRO_PER_MINUTE: '1000' } });
    started.push(again);
    const restartedPids: number[] = [];
    try {
      const second = JSON.parse(await readFile(path.join(dataDir, 'stack.json'), 'utf8')) as StackFile;
      expect(second.tokens).toEqual(info.tokens);
      const old = await fetch(
        `${second.urls.api}/api/v2/scanner/scans/${encodeURIComponent(honeypot.job_id)}`,
        { headers: { 'x-api-key': second.api_key } },
      );
      expect(old.status).toBe(200);
      expect(((await old.json()) as Job).result?.tier).toBe('critical');

      // Supervision: the workers SIGKILLed, scans submitted while they are down, then the backend
      // SIGKILLed. The launcher restarts both with backoff, /health names them, and every job
      // submitted around the kills completes.
      const pidOf = (name: string) => second.processes.find((entry) => entry.name === name)?.pid ?? 0;
      const [workersPid, backendPid] = [pidOf('workers'), pidOf('backend')];
      expect(workersPid * backendPid).toBeGreaterThan(0);
      const headers = { 'content-type': 'application/json', 'x-api-key': second.api_key };
      process.kill(workersPid, 'SIGKILL');
      const submitted = await Promise.all(
        Object.values(second.tokens)
          .slice(0, 6)
          .map(async (token) => {
            const response = await fetch(`${second.urls.api}/api/v2/scanner/scans`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ chain: 'devnet', address: token.address, fresh: true, wait_ms: 0 }),
            });
            return { status: response.status, jobId: ((await response.json()) as Job).job_id };
          }),
      );
      // No worker to run them: the scans are still pending when answered (202), not refused.
      expect(submitted.map((answer) => answer.status)).toEqual(submitted.map(() => 202));
      const jobIds = submitted.map((answer) => answer.jobId);
      process.kill(backendPid, 'SIGKILL');
      const restarted = await until(
        async () => {
          const state = JSON.parse(await readFile(path.join(dataDir, 'stack.json'), 'utf8')) as StackFile;
          const children = state.processes.filter((entry) => ['workers', 'backend'].includes(entry.name));
          return children.every((entry) => entry.state === 'running' && entry.restarts === 1)
            ? children
            : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 250 },
      );
      expect(restarted.map((entry) => entry.pid)).not.toContain(workersPid);
      expect(restarted.map((entry) => entry.pid)).not.toContain(backendPid);
      const health = (await (await fetch(`${second.urls.api}/health`)).json()) as {
        processes?: { name: string; state: string; restarts: number; last_exit: string | null }[];
      };
      expect(health.processes).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'workers', state: 'running', restarts: 1, last_exit: 'SIGKILL' }),
          expect.objectContaining({ name: 'backend', state: 'running', restarts: 1, last_exit: 'SIGKILL' }),
        ]),
      );
      const finished = await until(
        async () => {
          const jobs = await Promise.all(
            jobIds.map(
              async (jobId) =>
                (await (
                  await fetch(`${second.urls.api}/api/v2/scanner/scans/${encodeURIComponent(jobId)}`, {
                    headers,
                  })
                ).json()) as Job,
            ),
          );
          return jobs.every((job) => job.status === 'completed') ? jobs : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      expect(finished.every((job) => job.result !== null)).toBe(true);
      restartedPids.push(...restarted.map((entry) => entry.pid).filter((pid): pid is number => pid !== null));
    } finally {
      await again.stop(60_000);
    }
    // The restarted children stop with the stack like the others.
    expect(restartedPids.filter(alive)).toEqual([]);
    // The whole stack starting twice, the demo, the scans, an ingest, the index catching up and two
    // children restarted: minutes on a busy two-core machine, beyond the default per-test limit.
  }, 420_000);
});
