import { describe, expect, it } from 'vitest';
import { spawnService } from './processes.ts';
import { Supervisor } from './supervisor.ts';
import { until } from '../../test/support/until.ts';

/** A real child process: says it is up, then lives until killed (or exits at once when `crash`). */
const child = (name: string, crash = false) =>
  spawnService({
    name,
    command: process.execPath,
    args: [
      '-e',
      crash
        ? 'console.log("up"); setTimeout(() => process.exit(3), 250)'
        : 'console.log("up"); setInterval(() => {}, 1000)',
    ],
    ready: (output) => Promise.resolve(output.includes('up')),
  });

function alive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the stack supervisor', () => {
  it('restarts a SIGKILLed child with a new pid, counts it and says so', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor({
      say: (line) => lines.push(line),
      onChange: () => undefined,
      baseDelayMs: 10,
    });
    const first = await supervisor.add('worker', () => child('worker'));
    first.child.kill('SIGKILL');
    const restarted = await until(
      async () => {
        await Promise.resolve();
        const [status] = supervisor.status();
        return status?.state === 'running' && status.restarts === 1 ? status : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 20 },
    );
    expect(restarted.pid).not.toBe(first.child.pid);
    expect(alive(restarted.pid)).toBe(true);
    expect(restarted.last_exit).toBe('SIGKILL');
    expect(lines.join('\n')).toMatch(
      /worker exited unexpectedly \(SIGKILL\); restarting in 10 ms[\s\S]*worker restarted \(pid \d+, restart 1\)/,
    );
    supervisor.beginStop();
    await supervisor.stop('worker');
    expect(alive(restarted.pid)).toBe(false);
  });

  it('backs off exponentially and gives up a child that keeps crashing', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor({
      say: (line) => lines.push(line),
      onChange: () => undefined,
      baseDelayMs: 10,
      maxCrashes: 3,
    });
    await supervisor.add('flaky', () => child('flaky', true));
    const gaveUp = await until(
      async () => {
        await Promise.resolve();
        const [status] = supervisor.status();
        return status?.state === 'gave_up' ? status : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20 },
    );
    expect(gaveUp).toMatchObject({ restarts: 3, last_exit: '3', pid: null });
    const delays = [...lines.join('\n').matchAll(/restarting in (\d+) ms/g)].map((match) => Number(match[1]));
    expect(delays).toEqual([10, 20, 40]);
    expect(lines.at(-1)).toMatch(/flaky exited \(3\) 4 times within 60 s: not restarting it/);
  });

  it('stops a child waiting in backoff: nothing is started after the stop', async () => {
    const supervisor = new Supervisor({ say: () => undefined, onChange: () => undefined, baseDelayMs: 300 });
    const first = await supervisor.add('api', () => child('api'));
    first.child.kill('SIGKILL');
    await until(
      async () =>
        (await Promise.resolve(supervisor.status()[0]?.state)) === 'restarting' ? true : undefined,
      {
        timeoutMs: 10_000,
        intervalMs: 10,
      },
    );
    supervisor.beginStop();
    await supervisor.stop('api');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(supervisor.status()[0]).toMatchObject({ state: 'stopped', restarts: 0, pid: null });
  });
});
