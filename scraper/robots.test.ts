import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../clients/redis.ts';
import { testStack } from '../test/support/fixtures.ts';
import { createGuardedAgent } from './http/guardedAgent.ts';
import { RobotsPolicy } from './robots.ts';
import { parseAllowlist, parsePortPolicy } from './ssrf/addressPolicy.ts';
import { EgressGuard } from './ssrf/guard.ts';

// Three origins: one with rules, one without a robots.txt (404), one whose robots.txt fails (503).
const servers: http.Server[] = [];
const origins: Record<'rules' | 'missing' | 'broken', string> = { rules: '', missing: '', broken: '' };
let robotsFetches = 0;

beforeAll(async () => {
  const answers = {
    rules: (response: http.ServerResponse) =>
      response
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(
          'User-agent: *\nCrawl-delay: 9\nDisallow: /private\n\nUser-agent: VigilScraper\nCrawl-delay: 2.5\nDisallow: /no-vigil\n',
        ),
    missing: (response: http.ServerResponse) => response.writeHead(404).end(),
    broken: (response: http.ServerResponse) => response.writeHead(503).end(),
  };
  for (const name of Object.keys(answers) as (keyof typeof answers)[]) {
    const server = http.createServer((request, response) => {
      if (request.url === '/robots.txt') robotsFetches++;
      answers[name](response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('robots.txt (RFC 9309)', () => {
  const redis = createRedis(testStack().redisUrl, { keyPrefix: `test:robots:${Date.now()}:` });
  const guard = new EgressGuard({
    allow: parseAllowlist('127.0.0.1/32'),
    ports: parsePortPolicy('1024-65535'),
  });
  const robots = new RobotsPolicy({ redis, guard, dispatcher: createGuardedAgent(guard) });
  const signal = new AbortController().signal;
  afterAll(() => redis.quit());

  it('follows the group for Vigil’s product token, and the wildcard group', async () => {
    expect(await robots.check(new URL(`${origins.rules}/public/page`), signal)).toEqual({ allowed: true });
    // A specific group replaces the wildcard one for that agent.
    expect(await robots.check(new URL(`${origins.rules}/no-vigil/x`), signal)).toMatchObject({
      allowed: false,
    });
    expect(await robots.check(new URL(`${origins.rules}/private`), signal)).toEqual({ allowed: true });
  });

  it('allows everything when robots.txt is missing, and nothing when it is unreachable', async () => {
    expect(await robots.check(new URL(`${origins.missing}/anything`), signal)).toEqual({ allowed: true });
    expect(await robots.check(new URL(`${origins.broken}/anything`), signal)).toMatchObject({
      allowed: false,
    });
  });

  it('reads Crawl-delay from Vigil’s own group before the wildcard; none when the file is missing or broken', async () => {
    expect(await robots.crawlDelaySeconds(new URL(`${origins.rules}/page`), signal)).toBe(2.5);
    expect(await robots.crawlDelaySeconds(new URL(`${origins.missing}/page`), signal)).toBe(0);
    expect(await robots.crawlDelaySeconds(new URL(`${origins.broken}/page`), signal)).toBe(0);
  });

  it('caches each origin’s file', async () => {
    const before = robotsFetches;
    await robots.check(new URL(`${origins.rules}/public/again`), signal);
    await robots.check(new URL(`${origins.missing}/again`), signal);
    expect(robotsFetches).toBe(before);
  });
});
