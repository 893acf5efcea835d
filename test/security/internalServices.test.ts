import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployCleanTokens } from '../../infra/devnet/bulkTokens.ts';
import { freePort } from '../../infra/stack/processes.ts';
import { startMongo, startRedis } from '../../infra/stack/services.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { ScanCompletions } from '../../api/backend/scanCompletions.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { ScanStore } from '../../scanner/scanStore.ts';
import { JobWords, warnOncePerChannel } from '../../clients/jobWords.ts';
import type { ScrapeOutcome } from '../../core/scrape/outcome.ts';
import { PageStore } from '../../scraper/pageStore.ts';
import { testPki, type TestPki } from '../support/certificates.ts';
import { until } from '../support/until.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { startTemporalFront, type TemporalFront } from '../support/temporalFront.ts';

// Internal services authenticate their callers in a deployment: Temporal by mTLS or an API key,
// Redis by ACL users (the very file infra/deploy ships), MongoDB by its own users. Real servers
// throughout; the Temporal dev server speaks neither mTLS nor keys, so a front that
// authenticates like a cluster does stands before it (test/support/temporalFront.ts).

const SERVER_NAME = 'temporal.vigil.test';
/**
 * Its own dev account and tokens: a job's workflow id is its token's, and a scan queued here (no
 * worker polls its queue) must not be joined by another test's.
 */
const DEPLOYER_INDEX = 6;
let tokens: string[] = [];
beforeAll(async () => {
  tokens = await deployCleanTokens(testStack().rpcUrl, { count: 2, accountIndex: DEPLOYER_INDEX });
});

async function scanThrough(backend: TestBackend): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await backend.app.inject({
    method: 'POST',
    url: '/api/v2/scanner/scans',
    headers: AUTHED,
    payload: {
      chain: 'devnet',
      address: tokens[0],
      wait_ms: 30_000,
      fresh: true,
    },
  });
  return { status: response.statusCode, body: response.json() };
}

describe('Temporal through mTLS', () => {
  let pki: TestPki;
  let front: TemporalFront;
  beforeAll(async () => {
    pki = testPki(SERVER_NAME);
    front = await startTemporalFront(testStack().temporalAddress, { mtls: pki });
  });
  afterAll(() => front?.close());

  const tlsEnv = (cert: string, key: string) =>
    isolatedEnv({
      TEMPORAL_ADDRESS: front.address,
      TEMPORAL_TLS_CA_PATH: pki.files.ca,
      TEMPORAL_TLS_CERT_PATH: cert,
      TEMPORAL_TLS_KEY_PATH: key,
      TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
    });

  it('runs a scan end to end when the backend and the worker present the client certificate', async () => {
    const env = tlsEnv(pki.files.clientCert, pki.files.clientKey);
    let workers: RunningWorkers | undefined;
    const backend = await startTestBackend(env);
    try {
      workers = await startTestWorkers(env);
      const before = front.forwarded();
      const { status, body } = await scanThrough(backend);
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'completed' });
      // It went through the authenticating front, not around it.
      expect(front.forwarded()).toBeGreaterThan(before);
    } finally {
      await backend.close();
      await workers?.shutdown();
    }
  });

  it('refuses a stranger’s certificate and a caller without one: the API answers 503, nothing starts', async () => {
    const before = front.forwarded();
    // The client retries a refused connection for a while before it gives up: all three at once.
    const answers = await Promise.all(
      [
        tlsEnv(pki.files.strangerCert, pki.files.strangerKey),
        isolatedEnv({
          TEMPORAL_ADDRESS: front.address,
          TEMPORAL_TLS_CA_PATH: pki.files.ca,
          TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
        }),
        isolatedEnv({ TEMPORAL_ADDRESS: front.address }),
      ].map(async (env) => {
        const backend = await startTestBackend(env);
        try {
          return await scanThrough(backend);
        } finally {
          await backend.close();
        }
      }),
    );
    for (const { status, body } of answers) {
      expect(status).toBe(503);
      expect(body).toMatchObject({ code: 'engine_unavailable' });
    }
    expect(front.forwarded()).toBe(before);
  }, 120_000);

  it('refuses to boot with half a key pair, naming the variables', async () => {
    await expect(
      startTestBackend(
        isolatedEnv({ TEMPORAL_ADDRESS: front.address, TEMPORAL_TLS_CERT_PATH: pki.files.clientCert }),
      ),
    ).rejects.toThrow(/TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH/);
  });
});

describe('Temporal through an API key', () => {
  const key = randomBytes(24).toString('base64url');
  let front: TemporalFront;
  beforeAll(async () => {
    front = await startTemporalFront(testStack().temporalAddress, { apiKey: key });
  });
  afterAll(() => front?.close());

  it('starts a job with the key and is refused without it or with another', async () => {
    // The front here terminates no TLS (a sidecar's case), which a key only crosses when told so.
    const answers: number[] = [];
    for (const apiKey of [key, 'not-the-key', undefined]) {
      const backend = await startTestBackend(
        isolatedEnv({
          TEMPORAL_ADDRESS: front.address,
          TEMPORAL_TLS: '0',
          ...(apiKey ? { TEMPORAL_API_KEY: apiKey } : {}),
        }),
      );
      try {
        const response = await backend.app.inject({
          method: 'POST',
          url: '/api/v2/scanner/scans',
          headers: AUTHED,
          payload: { chain: 'devnet', address: tokens[1], fresh: true },
        });
        answers.push(response.statusCode);
      } finally {
        await backend.close();
      }
    }
    // 202: queued (no worker polls these queues); 503: the engine refused the caller.
    expect(answers).toEqual([202, 503, 503]);
  });
});

describe('Redis through ACL users (infra/deploy/redis/users.acl)', () => {
  const passwords = {
    __VIGIL_BACKEND_PASSWORD__: randomBytes(18).toString('hex'),
    __VIGIL_WORKERS_PASSWORD__: randomBytes(18).toString('hex'),
    __VIGIL_FACILITATOR_PASSWORD__: randomBytes(18).toString('hex'),
    __VIGIL_SCRAPER_PASSWORD__: randomBytes(18).toString('hex'),
  };
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let port: number;
  beforeAll(async () => {
    let acl = readFileSync(new URL('../../infra/deploy/redis/users.acl', import.meta.url), 'utf8');
    for (const [placeholder, secret] of Object.entries(passwords)) acl = acl.replaceAll(placeholder, secret);
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-acl-'));
    const aclFile = path.join(dir, 'users.acl');
    writeFileSync(aclFile, acl, { mode: 0o600 });
    port = await freePort();
    redis = await startRedis({
      port,
      aclFile,
      probeUrl: `redis://vigil-backend:${passwords.__VIGIL_BACKEND_PASSWORD__}@127.0.0.1:${port}`,
    });
  });
  afterAll(() => redis?.process.stop(5_000));

  const url = (user: string, password: string) => `redis://${user}:${password}@127.0.0.1:${port}/0`;

  it('serves the backend with its user, and answers 503 without naming the secret when the password is wrong', async () => {
    const good = await startTestBackend(
      isolatedEnv({
        REDIS_URL: url('vigil-backend', passwords.__VIGIL_BACKEND_PASSWORD__),
        REDIS_KEY_PREFIX: 'vigil:',
      }),
    );
    const secret = 'wrong-secret-that-must-not-leak';
    const bad = await startTestBackend(
      isolatedEnv({ REDIS_URL: url('vigil-backend', secret), REDIS_KEY_PREFIX: 'vigil:' }),
    );
    try {
      const ready = await good.app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);
      // A trial call counts in Redis through the ACL user (scripts, sorted sets and all).
      const api = await good.app.inject({
        method: 'GET',
        url: '/api',
        headers: { 'x-client-id': 'acl-client-1' },
      });
      expect(api.statusCode).toBe(200);
      const refused = await bad.app.inject({ method: 'GET', url: '/ready' });
      expect(refused.statusCode).toBe(503);
      const answer = await bad.app.inject({ method: 'GET', url: '/api' });
      expect(answer.statusCode).toBe(503);
      for (const response of [refused, answer]) expect(response.body).not.toContain(secret);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('gives a client without credentials nothing, and the scraper’s user no payment state', async () => {
    const anonymous = new Redis(`redis://127.0.0.1:${port}`, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    anonymous.on('error', () => undefined);
    const backend = new Redis(url('vigil-backend', passwords.__VIGIL_BACKEND_PASSWORD__), {
      lazyConnect: true,
    });
    const scraper = new Redis(url('vigil-scraper', passwords.__VIGIL_SCRAPER_PASSWORD__), {
      lazyConnect: true,
    });
    try {
      // The default user is off: the connection is refused at its handshake, nothing is read.
      await expect(anonymous.connect().then(() => anonymous.get('vigil:trial:x'))).rejects.toThrow();
      await backend.set('vigil:reservation:proof', 'held');
      await scraper.set('vigil:scraper:page:job:http:content', '"page"');
      await expect(scraper.get('vigil:reservation:proof')).rejects.toThrow(/NOPERM/);
      await expect(scraper.set('vigil:trial:token_risk:fingerprint:x', '1')).rejects.toThrow(/NOPERM/);
      await expect(scraper.keys('*')).rejects.toThrow(/NOPERM/);
      await expect(backend.flushall()).rejects.toThrow(/NOPERM/);
      expect(await scraper.get('vigil:scraper:page:job:http:content')).toBe('"page"');
    } finally {
      anonymous.disconnect();
      backend.disconnect();
      scraper.disconnect();
    }
  });

  it('lets the worker’s user store a scan and say so, and the backend’s user hear it; no one else', async () => {
    const workers = new Redis(url('vigil-workers', passwords.__VIGIL_WORKERS_PASSWORD__), {
      keyPrefix: 'vigil:',
    });
    const backend = new Redis(url('vigil-backend', passwords.__VIGIL_BACKEND_PASSWORD__), {
      keyPrefix: 'vigil:',
    });
    const scraper = new Redis(url('vigil-scraper', passwords.__VIGIL_SCRAPER_PASSWORD__), {
      keyPrefix: 'vigil:',
    });
    const completions = new ScanCompletions(backend);
    // The permanent record is MongoDB's business, tested on its own: only Redis is under test.
    const db = { collection: () => ({ insertOne: () => Promise.resolve() }) } as unknown as Db;
    const scans = new ScanStore({ db, redis: workers, ttlSeconds: 60 });
    const result = {
      chain: 'devnet',
      address: '0x00000000000000000000000000000000000000aa',
      model_version: 'test',
      risk_score: 1,
      tier: 'low',
      gates: [],
      flags: [],
      token: { name: 'T', symbol: 'T' },
    } as unknown as ScanResult;
    const jobId = `scan:acl-${randomBytes(4).toString('hex')}`;
    try {
      // The subscriber hears the channel before the word is sent.
      await completions.listening();
      const heard = completions.stored(jobId, new AbortController().signal);
      await scans.save(jobId, result);
      await heard;
      // The backend's user reads the copy the word announced.
      expect(JSON.parse((await backend.get(ScanStore.jobKey(jobId))) ?? '{}')).toMatchObject({
        job_id: jobId,
      });
      await expect(scraper.publish('vigil:scan:v1:done', jobId)).rejects.toThrow(/NOPERM/);
      // The scraper's user says and hears its own word (a page a tier got), and only that.
      const scraperWords = new JobWords(scraper, PageStore.doneChannel(scraper));
      try {
        await scraperWords.listening();
        const page = scraperWords.next('scrape:acl', new AbortController().signal);
        new PageStore(scraper, 60).announce('scrape:acl', { kind: 'ok' } as unknown as ScrapeOutcome);
        expect(JSON.parse(await page)).toEqual({ kind: 'ok' });
      } finally {
        scraperWords.close();
      }
      await expect(workers.publish('vigil:trial:x', jobId)).rejects.toThrow(/NOPERM/);
    } finally {
      completions.close();
      workers.disconnect();
      backend.disconnect();
      scraper.disconnect();
    }
  });

  it('says once, in the log, that a Redis user may not publish a job’s word on its channel', async () => {
    // The scraper pool on the main Redis (no SCRAPER_REDIS_URL): the workers' user holds no grant
    // for the scrape's channel, so every word is refused; the page itself is stored all the same.
    const workers = new Redis(url('vigil-workers', passwords.__VIGIL_WORKERS_PASSWORD__), {
      keyPrefix: 'vigil:',
    });
    const warned: { message: string; meta: Record<string, unknown> }[] = [];
    const pages = new PageStore(
      workers,
      60,
      warnOncePerChannel((message, meta) => warned.push({ message, meta })),
    );
    try {
      for (const job of ['scrape:acl-1', 'scrape:acl-2'])
        pages.announce(job, { kind: 'ok' } as unknown as ScrapeOutcome);
      await until(() => Promise.resolve(warned.length > 0 ? true : undefined));
      // Both words were refused; one line says so.
      await workers.ping();
      expect(warned).toEqual([
        {
          message: expect.stringContaining('could not be published') as string,
          meta: { channel: 'vigil:scraper:done', error: expect.stringMatching(/NOPERM/) as string },
        },
      ]);
    } finally {
      workers.disconnect();
    }
  });
});

describe('MongoDB through its own users', () => {
  const user = { username: 'vigil', password: randomBytes(18).toString('hex') };
  let mongo: Awaited<ReturnType<typeof startMongo>>;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    mongo = await startMongo({
      port,
      dir: mkdtempSync(path.join(tmpdir(), 'vigil-mongo-auth-')),
      auth: user,
    });
  });
  afterAll(() => mongo?.process.stop(5_000));

  it('is ready with the user’s credentials, and not without them (the problem names no secret)', async () => {
    const withUser = await startTestBackend(
      isolatedEnv({
        MONGODB_URI: `mongodb://${user.username}:${user.password}@127.0.0.1:${port}/?authSource=admin`,
      }),
    );
    const without = await startTestBackend(isolatedEnv({ MONGODB_URI: `mongodb://127.0.0.1:${port}` }));
    const wrong = 'wrong-mongo-secret';
    const wrongUser = await startTestBackend(
      isolatedEnv({ MONGODB_URI: `mongodb://${user.username}:${wrong}@127.0.0.1:${port}/?authSource=admin` }),
    );
    try {
      expect((await withUser.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      await withUser.deps.mongo.db.collection('probe').insertOne({ at: new Date() });
      for (const backend of [without, wrongUser]) {
        await expect(
          backend.deps.mongo.db.collection('probe').insertOne({ at: new Date() }),
        ).rejects.toThrow();
        const health = await backend.app.inject({ method: 'GET', url: '/health' });
        expect(health.body).not.toContain(wrong);
      }
    } finally {
      await Promise.all([withUser.close(), without.close(), wrongUser.close()]);
    }
  });
});
