import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { createDevnetClient } from './client.ts';

const started: AnvilInstance[] = [];
const scratch = await mkdtemp(join(tmpdir(), 'vigil-anvil-'));

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
  await rm(scratch, { recursive: true, force: true });
});

async function start(parameters: Parameters<typeof startAnvil>[0] = {}): Promise<AnvilInstance> {
  const node = await startAnvil(parameters);
  started.push(node);
  return node;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe('startAnvil', () => {
  it('spills historical states into a folder of its own that goes with the node, even a killed one', async () => {
    const cachePathOf = (pid: number): string => {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const path = args[args.indexOf('--cache-path') + 1];
      if (path === undefined || path === '') throw new Error('no --cache-path');
      return path;
    };
    const stopped = await startAnvil();
    const stoppedCache = cachePathOf(stopped.process.pid ?? 0);
    expect(existsSync(stoppedCache)).toBe(true);
    await stopped.stop();
    expect(existsSync(stoppedCache)).toBe(false);

    const killed = await startAnvil();
    const killedCache = cachePathOf(killed.process.pid ?? 0);
    expect(killedCache).not.toBe(stoppedCache);
    killed.process.kill('SIGKILL');
    await once(killed.process, 'close');
    expect(existsSync(killedCache)).toBe(true);
    await killed.stop();
    expect(existsSync(killedCache)).toBe(false);
  });
  it('binds a free loopback port when none is given and answers JSON-RPC', async () => {
    const node = await start();
    expect(node.port).toBeGreaterThan(0);
    expect(node.url).toBe(`http://127.0.0.1:${node.port}`);
    expect(await createDevnetClient(node.url).getChainId()).toBe(31337);
  });

  it('uses the chain id it is given', async () => {
    const node = await start({ chainId: 1337 });
    expect(await createDevnetClient(node.url).getChainId()).toBe(1337);
  });

  it('starts a new chain at the genesis time it is given', async () => {
    const genesis = Math.floor(Date.now() / 1000) - 30 * 86_400;
    const node = await start({ genesisTimestamp: genesis });
    const block = await createDevnetClient(node.url).getBlock({ blockNumber: 0n });
    expect(Number(block.timestamp)).toBe(genesis);
  });

  it('stop() leaves no process behind and frees the port', async () => {
    const node = await startAnvil();
    const pid = node.process.pid;
    expect(pid).toBeDefined();
    await node.stop();
    expect(node.process.exitCode !== null || node.process.signalCode !== null).toBe(true);
    expect(isAlive(pid ?? -1)).toBe(false);
    await expect(fetch(node.url, { method: 'POST', signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    await node.stop();
  });

  it('refuses a port that is already taken', async () => {
    const busy = await start();
    await expect(startAnvil({ port: busy.port })).rejects.toThrow(
      `port ${busy.port} on 127.0.0.1 is already in use`,
    );
  });

  it('fails with the node’s stderr when it exits before it is ready', async () => {
    const statePath = join(scratch, 'corrupt-state.json');
    await writeFile(statePath, 'not json');
    await expect(startAnvil({ statePath })).rejects.toThrow(
      /exited before it was ready \(code \d+\): .*failed to parse json/s,
    );
  });

  it('a node does not outlive an owner that exits without calling stop()', async () => {
    // The owner exits without calling stop(); its exit handler must take the node down.
    const anvilModule = new URL('./anvil.ts', import.meta.url).href;
    const owner = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { startAnvil } = await import(${JSON.stringify(anvilModule)});
         const node = await startAnvil();
         process.stdout.write(String(node.process.pid));
         process.exit(0);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    owner.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await once(owner, 'close');
    const pid = Number(output);
    expect(pid).toBeGreaterThan(0);
    expect(await waitFor(() => !isAlive(pid), 10_000)).toBe(true);
  });

  it('restarting from statePath keeps deployed code', async () => {
    const statePath = join(scratch, 'state.json');
    const code = '0x602a60005260206000f3';
    const address = '0x00000000000000000000000000000000000c0de1';
    const first = await startAnvil({ statePath });
    await createDevnetClient(first.url).setCode({ address, bytecode: code });
    await first.stop();
    expect(existsSync(statePath)).toBe(true);

    const second = await start({ statePath });
    expect(await createDevnetClient(second.url).getCode({ address })).toBe(code);
  });
});
