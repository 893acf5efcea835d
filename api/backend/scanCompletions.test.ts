import { afterAll, describe, expect, it } from 'vitest';
import { createMongo } from '../../clients/mongo.ts';
import { createRedis } from '../../clients/redis.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { ScanStore } from '../../scanner/scanStore.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import { until } from '../../test/support/until.ts';
import { ScanCompletions } from './scanCompletions.ts';

// Real Redis and MongoDB: the worker's store publishes, the API's waiters hear it.
describe('word of stored scan results', () => {
  const env = isolatedEnv();
  const other = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  const otherRedis = createRedis(other.REDIS_URL ?? '', { keyPrefix: other.REDIS_KEY_PREFIX ?? '' });
  const mongo = createMongo(env.MONGODB_URI ?? '', env.MONGODB_DB ?? '');
  const store = new ScanStore({ db: mongo.db, redis, ttlSeconds: 60 });
  const otherStore = new ScanStore({ db: mongo.db, redis: otherRedis, ttlSeconds: 60 });
  const completions = new ScanCompletions(redis);
  afterAll(async () => {
    completions.close();
    await Promise.allSettled([redis.quit(), otherRedis.quit(), mongo.close()]);
  });
  // What the store writes and publishes; the waiters never read the result itself.
  const result = (address: string) =>
    ({
      chain: 'devnet',
      address,
      model_version: 'test',
      risk_score: 0,
      tier: 'low',
      gates: [],
      flags: [],
      token: { name: null, symbol: null },
    }) as unknown as ScanResult;
  /**
   * Resolves once a job stored after everything published so far is heard: Redis delivers one
   * subscriber's messages in publish order, so any earlier word has arrived by then (no sleep).
   */
  const heardAfter = async () => {
    const sentinel = `scan:devnet:sentinel/run-${Math.random()}`;
    let heard = false;
    void completions.stored(sentinel, new AbortController().signal).then(() => (heard = true));
    // Stored again until heard, in case the subscriber is still connecting.
    await until(async () => {
      await store.save(sentinel, result('0xe'));
      return heard || undefined;
    });
  };
  const settled = (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    return () => done;
  };

  it('wakes the requests waiting on a job once its result is stored, and only those', async () => {
    const waiting = new AbortController();
    const mine = settled(completions.stored('scan:devnet:0xa/run-1', waiting.signal));
    const joined = settled(completions.stored('scan:devnet:0xa/run-1', waiting.signal));
    const another = settled(completions.stored('scan:devnet:0xb/run-1', waiting.signal));
    expect(completions.waiting).toBe(3);
    // The subscriber may still be connecting: the word is only useful once it is listening.
    await until(async () => {
      const [, subscribers] = (await redis.call('PUBSUB', 'NUMSUB', ScanStore.doneChannel(redis))) as [
        string,
        number,
      ];
      return subscribers > 0 ? true : undefined;
    });
    await store.save('scan:devnet:0xa/run-1', result('0xa'));
    await until(() => Promise.resolve(mine() && joined() ? true : undefined));
    expect(await redis.get(ScanStore.jobKey('scan:devnet:0xa/run-1'))).toContain('0xa');
    expect(another()).toBe(false);
    expect(completions.waiting).toBe(1);
    waiting.abort();
    expect(completions.waiting).toBe(0);
  });

  it('is not woken by another deployment sharing the Redis server (its key prefix names the channel)', async () => {
    const waiting = new AbortController();
    const mine = settled(completions.stored('scan:devnet:0xc/run-1', waiting.signal));
    await otherStore.save('scan:devnet:0xc/run-1', result('0xc'));
    await heardAfter();
    expect(mine()).toBe(false);
    // The same job id stored by this deployment afterwards does wake it: the first word was not lost
    // to a slow subscriber, it was never sent here.
    await store.save('scan:devnet:0xc/run-1', result('0xc'));
    await until(() => Promise.resolve(mine() ? true : undefined));
    waiting.abort();
  });

  it('forgets a waiter whose request stopped waiting, and never wakes it', async () => {
    const waiting = new AbortController();
    const mine = settled(completions.stored('scan:devnet:0xd/run-1', waiting.signal));
    waiting.abort();
    expect(completions.waiting).toBe(0);
    await store.save('scan:devnet:0xd/run-1', result('0xd'));
    await heardAfter();
    expect(mine()).toBe(false);
  });
});
