import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { RendererMemoryGuard } from './rendererMemory.ts';

const MIB = 1024 * 1024;

/**
 * A child that keeps 64 MiB resident and, after `renameAfterMs`, takes `title` as its command
 * line, as a Chromium renderer does after the zygote forks it (Node writes process.title over its
 * own argv, which is what /proc/<pid>/cmdline shows). The padding argument makes room for it.
 */
function child(title: string, renameAfterMs: number): ChildProcess {
  const script = `const kept = Buffer.alloc(${64 * MIB}, 7);
setTimeout(() => { process.title = process.env.TITLE; }, ${renameAfterMs});
setInterval(() => kept[0]++, 1000);`;
  const spawned = spawn(process.execPath, ['-e', script, 'x'.repeat(200)], {
    stdio: 'ignore',
    // Passed by the environment: were it in the script, the command line would hold it at once.
    env: { ...process.env, TITLE: title },
  });
  children.push(spawned);
  return spawned;
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
    const spawned = child('chromium --type=renderer --test', 1_500);
    guard = new RendererMemoryGuard(32 * MIB, () => true);
    guard.start();
    // Scanned at least twice as a process that is not (yet) a renderer, then killed once it is.
    expect(await exitWithin(spawned, 6_000)).toBe('SIGKILL');
    expect(guard.killed).toBe(1);
  });

  it('leaves a process that is not a renderer alone, however much it holds', async () => {
    const spawned = child('chromium --type=gpu-process --test', 0);
    guard = new RendererMemoryGuard(32 * MIB, () => true);
    guard.start();
    expect(await exitWithin(spawned, 2_000)).toBe('running');
    expect(guard.killed).toBe(0);
  });

  it('leaves a renderer under the limit alone', async () => {
    const spawned = child('chromium --type=renderer --test', 0);
    guard = new RendererMemoryGuard(512 * MIB, () => true);
    guard.start();
    expect(await exitWithin(spawned, 2_000)).toBe('running');
    expect(guard.killed).toBe(0);
  });
});
