import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

type Reply = number | string | null | Reply[];

/** A named Lua script beside this file, registered once per client (EVALSHA with EVAL fallback). */
export function luaCommand(redis: Redis, name: string, numberOfKeys: number) {
  const command = `vigil_scraper_${name}`;
  if (!(command in redis)) {
    redis.defineCommand(command, {
      numberOfKeys,
      lua: readFileSync(new URL(`./${name}.lua`, import.meta.url), 'utf8'),
    });
  }
  const run = (redis as unknown as Record<string, (...args: (string | number)[]) => Promise<Reply>>)[command];
  if (!run) throw new Error(`Redis script ${name} did not register`);
  return async (keys: readonly string[], args: readonly (string | number)[]): Promise<number[]> => {
    const reply = await run.call(redis, ...keys, ...args);
    if (!Array.isArray(reply)) throw new Error(`${name}: expected an array reply`);
    return reply.map((value) => Number(value));
  };
}
