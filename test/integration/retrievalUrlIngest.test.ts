import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import {
  ingestFinished,
  startTestRetrieval,
  tempIndexDir,
  type TestRetrieval,
} from '../support/retrievalFixtures.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';
import { type ScrapeSites, startScrapeSites } from '../support/scrapeSites.ts';

// A document given by URL goes through the scraper service as a caller like any other: its key
// (the scraper asks for one), its escalation chain and its egress guard, then chunks and embeds.
const KEY = 'ingest-pool-key-0123456789';

describe('ingest by URL through the scraper service', () => {
  let sites: ScrapeSites;
  let scraper: TestScraper;
  let retrieval: TestRetrieval;
  let workers: RunningWorkers[] = [];
  let env: Record<string, string>;
  let scraperUrl = '';

  beforeAll(async () => {
    sites = await startScrapeSites();
    env = isolatedEnv(
      scraperTestEnv({ RETRIEVAL_INDEX_URI: await tempIndexDir(), SCRAPER_API_KEYS: `ingest:${KEY}` }),
    );
    scraper = await startTestScraper(env);
    scraperUrl = await listenOnLoopback(scraper.app);
    [retrieval, ...workers] = await Promise.all([
      startTestRetrieval(env),
      startTestWorkers(env, { queues: [TaskQueue.scraper] }),
      startTestWorkers(
        { ...env, SCRAPER_URL: scraperUrl, SCRAPER_API_KEY: KEY },
        { queues: [TaskQueue.ingest] },
      ),
    ]);
  });
  afterAll(async () => {
    await Promise.allSettled(workers.map((worker) => worker.shutdown()));
    await retrieval?.close();
    await scraper?.close();
    await sites?.close();
  });

  it("fetches the page with the pool's key, chunks its main content, and answers queries from it", async () => {
    const before = sites.hits('static').length;
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/ingest',
      payload: { doc_id: 'engine-costs', url: sites.url('static'), category: 'guide' },
    });
    expect(response.statusCode, response.body).toBe(202);
    const job = await ingestFinished(retrieval.app, response.json<{ job_id: string }>().job_id, 120_000);
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'completed', outcome: 'indexed' });
    expect(job.chunks).toBeGreaterThan(0);
    expect(sites.hits('static').length).toBeGreaterThan(before);

    const query = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/query',
      payload: { query: 'is plain HTTP cheap?', top_k: 3, filters: { category: 'guide' } },
    });
    const hits = query.json<{ hits: { text: string; doc_id: string }[] }>().hits;
    expect(hits[0]?.doc_id).toBe('engine-costs');
    expect(hits[0]?.text).toContain('cheap');
  });

  it('fails the job for good, naming the reason, when the scraper refuses the pool’s key', async () => {
    const wrongKey = await startTestWorkers(
      { ...env, SCRAPER_URL: scraperUrl, SCRAPER_API_KEY: 'not-the-key' },
      { queues: [TaskQueue.ingest] },
    );
    // Only this worker polls the queue now.
    await Promise.all(workers.slice(1).map((worker) => worker.shutdown()));
    workers = [...workers.slice(0, 1), wrongKey];
    const response = await retrieval.app.inject({
      method: 'POST',
      url: '/v1/ingest',
      payload: { doc_id: 'refused', url: sites.url('static') },
    });
    expect(response.statusCode, response.body).toBe(202);
    const job = await ingestFinished(retrieval.app, response.json<{ job_id: string }>().job_id, 120_000);
    expect(job).toMatchObject({ status: 'failed', error: { reason: 'scraper_refused' } });
  });
});
