import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LaunchOptions } from 'playwright-core';

/**
 * Chromium flags. Playwright already adds --headless, --no-first-run,
 * --disable-background-networking and --disable-component-update; they are repeated so the
 * intent survives a change of launcher. Background networking must stay off (its connections
 * are refused on closed networks and would go through the egress proxy). QUIC and non-proxied
 * WebRTC UDP would bypass the proxy, so both are off. AutomationControlled is off for every
 * context: navigator.webdriver is the first thing bot checks read. The sandbox is on unless
 * configured off (see launchOptions).
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--no-pings',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-blink-features=AutomationControlled',
  // One renderer per job instead of one per site in it: a context already never shares a
  // renderer with another context (so one session's pages never share a process with another's),
  // and cross-site frames of one page are not worth a process each here (faster, less memory:
  // docs/benchmarks.md). Each renderer is sandboxed all the same.
  '--disable-features=IsolateOrigins,site-per-process',
  '--disable-site-isolation-trials',
];

export interface BrowserLaunch {
  executablePath: string;
  /** The default proxy of every context (each job's context names its own). */
  proxyServer: string;
  /** Chromium's sandbox (user namespaces and seccomp-bpf for every renderer). */
  sandbox: boolean;
  /** Who runs Chromium when this process is root (Chromium refuses its sandbox as root). */
  user: string;
  /** The JavaScript heap limit of each renderer, in MB. */
  maxHeapMb: number;
  /** The resident memory one renderer (one context's page) may use in all, in MB. */
  maxMemoryMb: number;
}

/** The script that runs Chromium as an unprivileged user (see the script for why). */
const RUN_AS_USER_SCRIPT = fileURLToPath(new URL('./runAsUser.sh', import.meta.url));

/**
 * The Chromium to launch: CHROMIUM_PATH when set, else the distribution's binary. Debian's
 * /usr/bin/chromium is a shell wrapper that adds flags and extensions from /etc/chromium.d, so
 * the real binary behind it is preferred when present.
 */
export function resolveChromiumPath(configured: string | undefined): string {
  if (configured) return configured;
  const candidates = [
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? '/usr/bin/chromium';
}

export function launchOptions(launch: BrowserLaunch): LaunchOptions {
  const asRoot = process.getuid?.() === 0;
  const dropToUser = launch.sandbox && asRoot;
  return {
    executablePath: dropToUser ? RUN_AS_USER_SCRIPT : launch.executablePath,
    headless: true,
    chromiumSandbox: launch.sandbox,
    args: [
      ...CHROMIUM_ARGS,
      ...(launch.sandbox ? [] : ['--no-sandbox']),
      `--js-flags=--max-old-space-size=${launch.maxHeapMb}`,
    ],
    ...(dropToUser
      ? {
          env: {
            ...process.env,
            VIGIL_CHROMIUM: launch.executablePath,
            VIGIL_BROWSER_USER: launch.user,
          },
        }
      : {}),
    proxy: { server: launch.proxyServer },
    timeout: 30_000,
    // The worker shuts down on its own terms (in-flight activities get a grace period, then the
    // pool closes the browser); Playwright's handlers would kill the browser at the first signal.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}
