import type { Redis } from 'ioredis';
import { asNumbers, luaScript } from '../../core/stores/lua/luaScript.ts';

/** A politeness script beside this file, answering an array of numbers. */
export function luaCommand(redis: Redis, name: string, numberOfKeys: number) {
  const run = luaScript(redis, name, numberOfKeys, new URL('./', import.meta.url));
  return async (keys: readonly string[], args: readonly (string | number)[]): Promise<number[]> =>
    asNumbers(await run(keys, args));
}
