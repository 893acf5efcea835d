import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../clients/redis.ts';
import { testStack } from '../../test/support/fixtures.ts';
import { DomainLimiter } from './domainLimiter.ts';

describe('per-domain politeness in Redis', () => {
  const redis = createRedis(testStack().redisUrl, { keyPrefix: `test:politeness:${Date.now()}:` });
  afterAll(() => redis.quit());

  it('caps requests in flight per domain, across limiter instances (workers)', async () => {
    const limits = { maxInFlight: 1, perSecond: 1_000, burst: 1_000, maxWaitMs: 0 };
    const workerA = new DomainLimiter(redis, limits);
    const workerB = new DomainLimiter(redis, limits);
    const first = await workerA.acquire('busy.example', 10_000);
    expect(first.granted).toBe(true);
    expect(await workerB.acquire('busy.example', 10_000)).toMatchObject({ granted: false });
    // Another domain is not affected.
    const other = await workerB.acquire('other.example', 10_000);
    expect(other.granted).toBe(true);
    if (first.granted) await first.release();
    const after = await workerB.acquire('busy.example', 10_000);
    expect(after.granted).toBe(true);
    for (const slot of [other, after]) if (slot.granted) await slot.release();
  });

  it('spaces request starts to the domain rate after the burst, and says how long to wait', async () => {
    const limiter = new DomainLimiter(redis, { maxInFlight: 100, perSecond: 0.5, burst: 2, maxWaitMs: 0 });
    const grants = [];
    for (let i = 0; i < 3; i++) grants.push(await limiter.acquire('slow.example', 1_000));
    expect(grants.map((slot) => slot.granted)).toEqual([true, true, false]);
    expect(grants[2]).toMatchObject({ granted: false, retryAfterS: 2 });
  });

  it('spaces starts by a Crawl-delay with no burst, however generous the configured rate', async () => {
    const limiter = new DomainLimiter(redis, {
      maxInFlight: 100,
      perSecond: 1_000,
      burst: 1_000,
      maxWaitMs: 0,
    });
    const first = await limiter.acquire('delayed.example', 1_000, undefined, 3_000);
    const second = await limiter.acquire('delayed.example', 1_000, undefined, 3_000);
    expect(first.granted).toBe(true);
    expect(second).toMatchObject({ granted: false, retryAfterS: 3 });
    // Without the delay the same limiter grants at once.
    expect((await limiter.acquire('undelayed.example', 1_000)).granted).toBe(true);
    expect((await limiter.acquire('undelayed.example', 1_000)).granted).toBe(true);
  });

  it('waits for a slot within maxWaitMs instead of refusing at once', async () => {
    const limiter = new DomainLimiter(redis, {
      maxInFlight: 1,
      perSecond: 1_000,
      burst: 1_000,
      maxWaitMs: 5_000,
    });
    const held = await limiter.acquire('queue.example', 10_000);
    if (!held.granted) throw new Error('first slot not granted');
    const waiting = limiter.acquire('queue.example', 10_000);
    await held.release();
    const next = await waiting;
    expect(next.granted).toBe(true);
    if (next.granted) await next.release();
  });

  it('remembers a target’s back-off until its Retry-After has passed', async () => {
    const limiter = new DomainLimiter(redis, { maxInFlight: 1, perSecond: 1, burst: 1, maxWaitMs: 0 });
    expect(await limiter.coolingDown('backoff.example')).toBe(0);
    await limiter.coolDown('backoff.example', 30);
    const left = await limiter.coolingDown('backoff.example');
    expect(left).toBeGreaterThan(25);
    expect(left).toBeLessThanOrEqual(30);
  });
});
