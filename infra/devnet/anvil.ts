import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../stack/processes.ts';

export interface StartAnvilParameters {
  /** 0 or omitted: a free port. */
  port?: number;
  /** Chain state file: loaded at start when it exists, written on exit and every `stateIntervalSeconds`. */
  statePath?: string;
  stateIntervalSeconds?: number;
  chainId?: number;
  /**
   * Unix seconds of the genesis block of a new chain (later blocks keep their offset from the
   * wall clock); ignored when a state file is loaded.
   */
  genesisTimestamp?: number;
  /** How long to wait for the node to answer JSON-RPC. */
  readyTimeoutMs?: number;
  /** Fork this node's latest state (fetched lazily), to try things on it without touching it. */
  forkUrl?: string;
}

export interface AnvilInstance {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGTERM (anvil writes its state file then), SIGKILL after a grace period; resolves once it has exited. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const DEFAULT_STATE_INTERVAL_SECONDS = 10;
const DEFAULT_READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const POLL_INTERVAL_MS = 20;
const STDERR_TAIL_CHARS = 4_000;
const PORT_ATTEMPTS = 3;

/**
 * The native anvil binary from the platform package that @foundry-rs/anvil installs. The package's
 * own `anvil` bin is a node wrapper that forwards only some signals: killing the wrapper leaves
 * the real node running and holding its port.
 */
export function anvilBinaryPath(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const packageName = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const binary = `${packageName}/bin/anvil${process.platform === 'win32' ? '.exe' : ''}`;
  try {
    return createRequire(import.meta.url).resolve(binary);
  } catch (error) {
    const hint = `is ${packageName} (an optional dependency of @foundry-rs/anvil) installed?`;
    throw new Error(`anvil binary not found: ${hint}`, { cause: error });
  }
}

/** Each running node and the folder its historical states spill into. */
const running = new Map<ChildProcess, string>();

// A node whose owner exits without calling stop() must not outlive it. SIGTERM still lets
// anvil write its state file.
function stopRunningNodes(): void {
  for (const [child, cachePath] of running) {
    child.kill('SIGTERM');
    removeCache(cachePath);
  }
}

/**
 * anvil keeps recent states in memory and writes older ones to disk so historical calls keep
 * working; by default under ~/.foundry/anvil/tmp, where a node that is killed rather than
 * stopped leaves them for good (hundreds of megabytes a test run). Each node gets a folder of
 * its own that goes when the node does.
 */
function newCachePath(): string {
  return mkdtempSync(join(tmpdir(), 'vigil-anvil-states-'));
}

function removeCache(cachePath: string): void {
  rmSync(cachePath, { recursive: true, force: true });
}

export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<AnvilInstance> {
  if (parameters.port !== undefined && parameters.port !== 0) {
    // Checked first: whatever holds the port would answer the readiness probe in anvil's place.
    if (await isListening(parameters.port))
      throw new Error(`port ${parameters.port} on ${HOST} is already in use`);
    return launch(parameters.port, parameters);
  }
  // A port picked here could be taken before anvil binds it; that race is rare, so try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(await freePort(), parameters);
    } catch (error) {
      if (!(error instanceof AnvilStartError && error.portInUse) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class AnvilStartError extends Error {
  override readonly name = 'AnvilStartError';
  readonly portInUse: boolean;

  constructor(message: string, stderr: string) {
    super(`${message}: ${stderr || '(no output)'}`);
    this.portInUse = /address already in use/i.test(stderr);
  }
}

async function launch(port: number, parameters: StartAnvilParameters): Promise<AnvilInstance> {
  // --silent: anvil otherwise logs every request to stdout, and a pipe nobody drains (this
  // process busy compiling, say) would block the node.
  const args = ['--silent', '--host', HOST, '--port', String(port)];
  if (parameters.chainId !== undefined) args.push('--chain-id', String(parameters.chainId));
  if (parameters.forkUrl !== undefined) args.push('--fork-url', parameters.forkUrl);
  const loadsState = parameters.statePath !== undefined && existsSync(parameters.statePath);
  if (parameters.genesisTimestamp !== undefined && !loadsState)
    args.push('--timestamp', String(parameters.genesisTimestamp));
  if (parameters.statePath !== undefined) {
    args.push('--state', parameters.statePath);
    args.push('--state-interval', String(parameters.stateIntervalSeconds ?? DEFAULT_STATE_INTERVAL_SECONDS));
  }

  const cachePath = newCachePath();
  args.push('--cache-path', cachePath);

  const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  // 'close' comes after stderr is drained, so the tail is complete by then. A spawn failure
  // emits 'error' instead, which settles this too.
  const closed = once(child, 'close').then(
    () => undefined,
    () => undefined,
  );
  running.set(child, cachePath);
  if (!process.listeners('exit').includes(stopRunningNodes)) process.on('exit', stopRunningNodes);

  const stop = async (): Promise<void> => {
    running.delete(child);
    try {
      if (spawnError !== undefined) return;
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await closed;
        clearTimeout(timer);
      } else {
        await closed;
      }
    } finally {
      removeCache(cachePath);
    }
  };

  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + (parameters.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  let lastError: unknown;
  try {
    for (;;) {
      if (spawnError !== undefined) {
        throw new Error(`anvil could not be started: ${spawnError.message}`, { cause: spawnError });
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        await closed;
        const status = child.signalCode ?? `code ${child.exitCode}`;
        throw new AnvilStartError(`anvil exited before it was ready (${status})`, stderrTail.trim());
      }
      if (Date.now() > deadline) {
        const detail = stderrTail.trim() || '(no output)';
        throw new Error(`anvil at ${url} did not answer eth_chainId in time: ${detail}`, {
          cause: lastError,
        });
      }
      try {
        if (await answersChainId(url)) return { url, port, process: child, stop };
      } catch (error) {
        lastError = error;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function answersChainId(url: string): Promise<boolean> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(1_000),
  });
  if (!response.ok) return false;
  const body = (await response.json()) as { result?: unknown };
  return typeof body.result === 'string';
}
