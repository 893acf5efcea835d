import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

type Reply = number | string | null | Reply[];

/**
 * A named Lua script (`<name>.lua` in `folder`, by default this one), registered on the client
 * (EVALSHA, falling back to EVAL after a Redis restart). Keys go through the client's key prefix
 * like any other command's. Script names are unique across folders. `numberOfKeys: 'variadic'`
 * takes as many keys as each call passes (they are still declared as keys, so the prefix and
 * ACL key patterns apply to them).
 */
const declared = new WeakMap<Redis, Map<string, number | 'variadic'>>();

export function luaScript(
  redis: Redis,
  name: string,
  numberOfKeys: number | 'variadic',
  folder: URL = new URL('./', import.meta.url),
) {
  const command = `vigil_${name}`;
  // One connection registers a script once: a second declaration with another key count would
  // silently run with the first one's (its key count read as a key), so it is refused here.
  const scripts = declared.get(redis) ?? new Map<string, number | 'variadic'>();
  declared.set(redis, scripts);
  const earlier = scripts.get(command);
  if (earlier !== undefined && earlier !== numberOfKeys)
    throw new Error(
      `Redis script ${name} is declared with ${String(earlier)} keys, not ${String(numberOfKeys)}`,
    );
  scripts.set(command, numberOfKeys);
  if (!(command in redis)) {
    const lua = readFileSync(new URL(`${name}.lua`, folder), 'utf8');
    redis.defineCommand(command, numberOfKeys === 'variadic' ? { lua } : { numberOfKeys, lua });
  }
  const run = (redis as unknown as Record<string, (...args: (string | number)[]) => Promise<Reply>>)[command];
  if (!run) throw new Error(`Redis script ${name} did not register`);
  return (keys: readonly string[], args: readonly (string | number)[]): Promise<Reply> => {
    if (numberOfKeys === 'variadic') return run.call(redis, keys.length, ...keys, ...args);
    if (keys.length !== numberOfKeys) throw new Error(`${name} takes ${numberOfKeys} keys`);
    return run.call(redis, ...keys, ...args);
  };
}

export function asNumbers(reply: Reply): number[] {
  if (!Array.isArray(reply)) throw new Error('expected an array reply');
  return reply.map((value) => Number(value));
}
