import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ManagedProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Output goes here (appended); otherwise it is kept only as a tail for error messages. */
  logFile?: string;
  /** Polled until it returns true; the process failing first is an error. */
  ready: (output: string) => Promise<boolean>;
  readyTimeoutMs?: number;
}

/** Starts a child process and waits until it is ready, with a deadline and no fixed sleeps. */
export async function spawnService(options: SpawnOptions): Promise<ManagedProcess> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  let head = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4_000);
    if (head.length < 16_000) head += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (options.logFile) {
    mkdirSync(path.dirname(options.logFile), { recursive: true });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => {
      tail += `\n${error.message}`;
      resolve('spawn-error');
    });
  });
  let exitCode: number | string | undefined;
  void exited.then((code) => {
    exitCode = code;
  });

  const managed: ManagedProcess = {
    name: options.name,
    child,
    exited,
    async stop(graceMs = 10_000) {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`${options.name} exited (${exitCode}) before it was ready:\n${tail.trim()}`);
    }
    if (await options.ready(head).catch(() => false)) return managed;
    if (Date.now() > deadline) {
      await managed.stop(1_000);
      throw new Error(
        `${options.name} was not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${tail.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** True when something accepts TCP connections on the port. */
export function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A provisioned tool (infra/provision.sh puts them in .tools/bin) or one on PATH. */
export function resolveTool(name: string): string | undefined {
  const local = path.join(REPO_ROOT, '.tools', 'bin', name);
  if (existsSync(local)) return local;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}
