import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../../test/support/fixtures.ts';
import { createRedis } from '../../../clients/redis.ts';
import { asNumbers, luaScript } from './luaScript.ts';

describe('the Redis Lua scripts', () => {
  const env = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  afterAll(() => redis.quit());

  it('trialConsume grants exactly the allotment under concurrency, then names when the oldest call ages out', async () => {
    const consume = luaScript(redis, 'trialConsume', 'variadic');
    const now = 1_000_000;
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        consume(['trial:t'], [now + index, 60_000, `call-${index}`, 5]),
      ),
    );
    const granted = replies.map(asNumbers).filter(([ok]) => ok === 1);
    expect(granted).toHaveLength(5);
    expect(asNumbers(await consume(['trial:t'], [now + 100, 60_000, 'late', 5]))).toEqual([0, 5, now]);
    // Keys carry the client's prefix.
    expect(await redis.zcard('trial:t')).toBe(5);
    // A minute later the window has rolled past the first calls.
    expect(asNumbers(await consume(['trial:t'], [now + 60_001, 60_000, 'next', 5]))[0]).toBe(1);
  });

  it('trialConsume grants only while every window has room (a caller and its network)', async () => {
    const consume = luaScript(redis, 'trialConsume', 'variadic');
    const now = 2_000_000;
    // Three callers on one network, 2 calls each, the network 4 in all.
    const replies = await Promise.all(
      ['a', 'b', 'c'].flatMap((caller) =>
        [0, 1, 2].map((index) =>
          consume([`trial:c:${caller}`, 'trial:net:n'], [now, 60_000, `${caller}-${index}`, 2, 4]),
        ),
      ),
    );
    expect(replies.map(asNumbers).filter(([ok]) => ok === 1)).toHaveLength(4);
    expect(await redis.zcard('trial:net:n')).toBe(4);
    for (const caller of ['a', 'b', 'c'])
      expect(await redis.zcard(`trial:c:${caller}`)).toBeLessThanOrEqual(2);
  });

  it('rateLimit counts every window atomically and sets each expiry once; rateLimitGiveBack undoes one count', async () => {
    const count = luaScript(redis, 'rateLimit', 'variadic');
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => count(['rl:m', 'rl:d'], [60_000, 86_400_000])),
    );
    const minutes = replies.map((reply) => asNumbers(reply)[0]).sort((a = 0, b = 0) => a - b);
    expect(minutes).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const [minute, minuteTtl, day, dayTtl] = asNumbers(await count(['rl:m', 'rl:d'], [60_000, 86_400_000]));
    expect([minute, day]).toEqual([21, 21]);
    expect(minuteTtl).toBeGreaterThan(55_000);
    expect(dayTtl).toBeGreaterThan(86_000_000);
    const giveBack = luaScript(redis, 'rateLimitGiveBack', 'variadic');
    expect(await giveBack(['rl:m', 'rl:gone'], [])).toBe(1);
    expect(await redis.get('rl:m')).toBe('20');
    // A window that has rolled over is never pushed below zero.
    expect(await redis.exists('rl:gone')).toBe(0);
  });

  it('reservePayment lets exactly one of many concurrent callers reserve', async () => {
    const reserve = luaScript(redis, 'reservePayment', 1);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => reserve(['pay:x'], [JSON.stringify({ by: index }), 60_000])),
    );
    const winners = replies.filter((reply) => Array.isArray(reply) && Number(reply[0]) === 1);
    expect(winners).toHaveLength(1);
    const holder = (winners[0] as [number, string])[1];
    for (const reply of replies) expect((reply as [number, string])[1]).toBe(holder);
  });

  it('compareAndSet moves a state only from an expected one, once under concurrency', async () => {
    const cas = luaScript(redis, 'compareAndSet', 1);
    expect(await cas(['state:missing'], ['open', 'paid'])).toEqual([0, '']);
    await redis.set('state:inv', 'open', 'EX', 60);
    const replies = await Promise.all(Array.from({ length: 10 }, () => cas(['state:inv'], ['open', 'paid'])));
    expect(replies.filter((reply) => Array.isArray(reply) && Number(reply[0]) === 1)).toHaveLength(1);
    expect(await cas(['state:inv'], ['open,expired', 'settled'])).toEqual([0, 'paid']);
    expect(await cas(['state:inv'], ['open,paid', 'settled'])).toEqual([1, 'settled']);
    // The expiry is kept.
    expect(await redis.ttl('state:inv')).toBeGreaterThan(0);
  });

  it('settleClaim answers a known result, else lets one claimant in; settleRelease stores and unlocks', async () => {
    const claim = luaScript(redis, 'settleClaim', 2);
    const release = luaScript(redis, 'settleRelease', 2);
    const keys = ['ok:a', 'lock:a'];
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, index) => claim(keys, [`t${index}`, 60_000])),
    );
    const winners = replies.filter((reply) => Array.isArray(reply) && Number(reply[0]) === 1);
    expect(winners).toHaveLength(1);
    const holder = await redis.get('lock:a');
    // Someone else's token releases nothing.
    await release(['ok:a', 'lock:a'], ['not-the-holder', '', 60]);
    expect(await redis.get('lock:a')).toBe(holder);
    await release(['ok:a', 'lock:a'], [holder ?? '', '{"success":true}', 60]);
    expect(await redis.get('lock:a')).toBeNull();
    expect(await claim(keys, ['late', 60_000])).toEqual([2, '{"success":true}']);
  });
});
