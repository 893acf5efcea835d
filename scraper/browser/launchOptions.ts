import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/**
 * Chromium flags. Playwright already adds --headless, --no-sandbox, --no-first-run,
 * --disable-background-networking and --disable-component-update; they are repeated so the
 * intent survives a change of launcher. Background networking must stay off (its connections
 * are refused on closed networks and would go through the egress proxy). QUIC and non-proxied
 * WebRTC UDP would bypass the proxy, so both are off. AutomationControlled is off for every
 * context: navigator.webdriver is the first thing bot checks read.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
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
  // docs/benchmarks.md).
  '--disable-features=IsolateOrigins,site-per-process',
  '--disable-site-isolation-trials',
];

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

export function launchOptions(executablePath: string, proxyServer: string): LaunchOptions {
  return {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    proxy: { server: proxyServer },
    timeout: 30_000,
    // The worker shuts down on its own terms (in-flight activities get a grace period, then the
    // pool closes the browser); Playwright's handlers would kill the browser at the first signal.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}
