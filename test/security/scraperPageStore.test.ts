import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/stack/processes.ts';
import { startRedis } from '../../infra/stack/services.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { isolatedEnv, startTestWorkers } from '../support/fixtures.ts';
import { type ScrapeSites, startScrapeSites } from '../support/scrapeSites.ts';
import { scraperTestEnv, startTestScraper, type TestScraper } from '../support/scraperFixtures.ts';

// The scraper keeps its pages, sessions and strategies apart from payment state: the scraper
// service and its worker pool run on SCRAPER_REDIS_URL, as the ACL user the deployment's file
// gives them, with no route to the Redis that holds trials and reservations (here: a port where
// nothing listens).

const password = randomBytes(18).toString('hex');
let redis: Awaited<ReturnType<typeof startRedis>>;
let redisPort: number;
let sites: ScrapeSites;
let workers: RunningWorkers;
let scraper: TestScraper;

beforeAll(async () => {
  let acl = readFileSync(new URL('../../infra/deploy/redis/users.acl', import.meta.url), 'utf8');
  acl = acl
    .replace('__VIGIL_SCRAPER_PASSWORD__', password)
    .replaceAll(/__VIGIL_[A-Z]+_PASSWORD__/g, () => randomBytes(18).toString('hex'));
  const aclFile = path.join(mkdtempSync(path.join(tmpdir(), 'vigil-acl-')), 'users.acl');
  writeFileSync(aclFile, acl, { mode: 0o600 });
  redisPort = await freePort();
  const scraperUrl = `redis://vigil-scraper:${password}@127.0.0.1:${redisPort}/0`;
  redis = await startRedis({ port: redisPort, aclFile, probeUrl: scraperUrl });
  sites = await startScrapeSites();
  const env = isolatedEnv(
    scraperTestEnv({
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      REDIS_KEY_PREFIX: 'vigil:',
      SCRAPER_REDIS_URL: scraperUrl,
    }),
  );
  [workers, scraper] = await Promise.all([
    startTestWorkers(env, { queues: [TaskQueue.scraper] }),
    startTestScraper(env),
  ]);
});
afterAll(async () => {
  await scraper?.close();
  await workers?.shutdown();
  await sites?.close();
  await redis?.process.stop(5_000);
});

describe('the page store', () => {
  it('lives in the scraper’s own Redis, where its user reaches nothing but scraper keys', async () => {
    const answer = await scraper.app.inject({
      method: 'POST',
      url: '/v1/scrape',
      payload: { url: sites.url('static'), session_id: 'kept-apart' },
      headers: { 'x-client-id': `store-${Date.now()}` },
    });
    expect(answer.statusCode).toBe(200);
    const { job_id: jobId, content } = answer.json<{ job_id: string; content: string }>();
    expect(content).toContain('Plain HTTP is **cheap**');
    const own = new Redis(`redis://vigil-scraper:${password}@127.0.0.1:${redisPort}/0`);
    try {
      // The page went to the scraper's store...
      expect(await own.exists(`vigil:scraper:page:${jobId}:http:content`)).toBe(1);
      // ...and its user can touch nothing of payment state there, even by a script.
      await expect(own.get('vigil:reservation:any')).rejects.toThrow(/NOPERM/);
      await expect(
        own.eval("return redis.call('GET', KEYS[1])", 1, 'vigil:trial:token_risk:x'),
      ).rejects.toThrow(/NOPERM|No permissions/);
    } finally {
      own.disconnect();
    }
    // The health page shows the scraper's own store up (the main Redis is not its concern).
    const health = await scraper.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json().stores).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'redis', status: 'up' })]),
    );
  });
});
