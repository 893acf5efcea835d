import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
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

/**
 * The kernel's ephemeral range (where `listen(0)` and every outgoing connection take their
 * local port). A port handed to a child process to bind later must come from below it: a port
 * the kernel picked for us is just as likely to be picked again for some socket's outgoing
 * connection in the seconds before the child binds it (EADDRINUSE).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 12_000) return low;
  } catch {
    // not Linux: the IANA dynamic range
  }
  return 49_152;
}

const handedOut = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port nobody listens on right now, for a process started later to bind: drawn at random
 * below the kernel's ephemeral range (so no outgoing connection takes it meanwhile), never the
 * same twice in one process, and checked free by binding it.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = 10_000;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high}`);
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
