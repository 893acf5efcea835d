import type { Redis } from 'ioredis';
import { asNumbers, luaScript } from '../../core/stores/lua/luaScript.ts';

/** Holders are kept this long after the last join: longer than any scan runs. */
const HOLDERS_TTL_S = 86_400;
const LUA = new URL('./lua/', import.meta.url);

export const LetGo = { notHolder: 'not_holder', detached: 'detached', cancel: 'cancel' } as const;
export type LetGo = (typeof LetGo)[keyof typeof LetGo];

/**
 * Who holds a running job: every caller that started or joined it (API callers until they
 * cancel, tool calls while they wait). A cancel by one holder only detaches it; the job is
 * cancelled when the last holder lets go, or by an operator. One Lua script per move, so a join
 * and a last cancel cannot interleave: a join after the last cancel finds the job cancelled.
 */
export class JobHolders {
  readonly #join: ReturnType<typeof luaScript>;
  readonly #leave: ReturnType<typeof luaScript>;
  readonly #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
    this.#join = luaScript(redis, 'jobJoin', 2, LUA);
    this.#leave = luaScript(redis, 'jobLeave', 2, LUA);
  }

  #keys(jobId: string): string[] {
    return [`scanjob:${jobId}:holders`, `scanjob:${jobId}:cancelled`];
  }

  /** False when the job is being cancelled (join a new run instead). */
  async join(jobId: string, holder: string): Promise<boolean> {
    return Number(await this.#join(this.#keys(jobId), [holder, HOLDERS_TTL_S])) >= 0;
  }

  async holds(jobId: string, holder: string): Promise<boolean> {
    return (await this.#redis.sismember(this.#keys(jobId)[0] ?? '', holder)) === 1;
  }

  /** Undoes a last cancel whose workflow cancellation could not be sent: the holder holds it again. */
  async undoCancel(jobId: string, holder: string): Promise<void> {
    const [holders = '', cancelled = ''] = this.#keys(jobId);
    await this.#redis.multi().del(cancelled).sadd(holders, holder).expire(holders, HOLDERS_TTL_S).exec();
  }

  /** Lets go of a job: `cancel` (an API caller), `leave` (a waiter done waiting), `force` (an operator). */
  async letGo(
    jobId: string,
    holder: string,
    mode: 'cancel' | 'leave' | 'force',
  ): Promise<{ outcome: LetGo; holdersLeft: number }> {
    const [code = -1, left = 0] = asNumbers(
      await this.#leave(this.#keys(jobId), [holder, mode, HOLDERS_TTL_S]),
    );
    const outcome = code === 2 ? LetGo.cancel : code === 1 ? LetGo.detached : LetGo.notHolder;
    return { outcome, holdersLeft: left };
  }
}
