import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { RendererMemoryGuard } from './rendererMemory.ts';

const MIB = 1024 * 1024;

/**
 * A child that keeps 64 MiB resident and takes `title` as its command line, at once or, with
 * `later`, when sent SIGUSR2, as a Chromium renderer does after the zygote forks it (Node writes
 * process.title over its own argv, which is what /proc/<pid>/cmdline shows). The padding argument
 * makes room for it. It prints a line once it is ready for the signal.
 */
async function child(title: string, { later = false } = {}): Promise<ChildProcess> {
  const rename = 'process.title = process.env.TITLE;';
  const script = `const kept = Buffer.alloc(${64 * MIB}, 7);
${later ? `process.on('SIGUSR2', () => { ${rename} });` : rename}
setInterval(() => kept[0]++, 1000);
console.log('ready');`;
  const spawned = spawn(process.execPath, ['-e', script, 'x'.repeat(200)], {
    stdio: ['ignore', 'pipe', 'ignore'],
    // Passed by the environment: were it in the script, the command line would hold it at once.
    env: { ...process.env, TITLE: title },
  });
  children.push(spawned);
  await once(spawned.stdout, 'data');
  return spawned;
}

/** A guard whose scans are counted, and a wait until it has made `count` more of them. */
function countedGuard(limitBytes: number) {
  let scans = 0;
  const waiters: { at: number; resolve: () => void }[] = [];
  const counted = new RendererMemoryGuard(limitBytes, () => {
    scans++;
    for (const waiter of waiters.filter((entry) => entry.at <= scans)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    return true;
  });
  const scansMore = (count: number) =>
    new Promise<void>((resolve) => waiters.push({ at: scans + count, resolve }));
  return { guard: counted, scansMore };
}

const children: ChildProcess[] = [];
let guard: RendererMemoryGuard | undefined;
afterEach(() => {
  guard?.stop();
  for (const spawned of children.splice(0)) spawned.kill('SIGKILL');
});

/** Whether the child exits within `ms`, and by which signal. */
async function exitWithin(spawned: ChildProcess, ms: number): Promise<NodeJS.Signals | null | 'running'> {
  const timeout = new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms));
  const exited = once(spawned, 'exit').then(([, signal]) => signal as NodeJS.Signals | null);
  return Promise.race([exited, timeout]);
}

describe.runIf(process.platform === 'linux')('the renderer memory guard', () => {
  it('kills a renderer over the limit that named itself only after the guard first saw it', async () => {
    const spawned = await child('chromium --type=renderer --test', { later: true });
    const counted = countedGuard(32 * MIB);
    guard = counted.guard;
    guard.start();
    // Scanned twice as a process that is not (yet) a renderer, then killed once it names itself one.
    await counted.scansMore(2);
    expect(spawned.exitCode).toBe(null);
    spawned.kill('SIGUSR2');
    expect(await exitWithin(spawned, 6_000)).toBe('SIGKILL');
    expect(guard.killed).toBe(1);
  });

  it('leaves a process that is not a renderer alone, however much it holds', async () => {
    const spawned = await child('chromium --type=gpu-process --test');
    const counted = countedGuard(32 * MIB);
    guard = counted.guard;
    guard.start();
    // Four scans later it is still running.
    await counted.scansMore(4);
    expect(spawned.exitCode).toBe(null);
    expect(spawned.signalCode).toBe(null);
    expect(guard.killed).toBe(0);
  });

  it('leaves a renderer under the limit alone', async () => {
    const spawned = await child('chromium --type=renderer --test');
    const counted = countedGuard(512 * MIB);
    guard = counted.guard;
    guard.start();
    // Four scans later it is still running.
    await counted.scansMore(4);
    expect(spawned.exitCode).toBe(null);
    expect(spawned.signalCode).toBe(null);
    expect(guard.killed).toBe(0);
  });
});
