import { readFileSync } from 'node:fs';
import type { ClientPlugin, ConnectionLike, TLSConfig } from '@temporalio/client';
import { currentTracing } from './tracing.ts';
import { ConfigError } from '../core/config/env.ts';
import type { StoresEnv } from '../core/config/stores.ts';

/** How every Vigil process reaches Temporal: the address, and TLS and credentials when configured. */
export interface TemporalConnectionOptions {
  address: string;
  /** false: plain gRPC, said explicitly (the SDK turns TLS on by itself when a key is set). */
  tls: TLSConfig | false;
  apiKey?: string;
}

/**
 * The Temporal connection settings of StoresEnv, with the certificate files read once at boot.
 * mTLS (TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH) is how a self-hosted cluster knows its
 * callers; an API key (TEMPORAL_API_KEY, sent as a bearer token) is Temporal Cloud's. Either turns
 * TLS on; TEMPORAL_TLS=1 alone gives server-authenticated TLS. A key is never sent in clear text
 * unless TEMPORAL_TLS=0 says so explicitly (a sidecar that terminates TLS next to the process).
 * The embedded stack sets none of these and stays plain on loopback.
 */
export function temporalConnectionOptions(env: StoresEnv): TemporalConnectionOptions {
  const certPath = env.TEMPORAL_TLS_CERT_PATH;
  const keyPath = env.TEMPORAL_TLS_KEY_PATH;
  if (Boolean(certPath) !== Boolean(keyPath))
    throw new ConfigError(['TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH go together (mTLS needs both)']);
  const wantsTls =
    env.TEMPORAL_TLS ??
    Boolean(certPath || env.TEMPORAL_TLS_CA_PATH || env.TEMPORAL_TLS_SERVER_NAME || env.TEMPORAL_API_KEY);
  const options: TemporalConnectionOptions = { address: env.TEMPORAL_ADDRESS, tls: false };
  if (env.TEMPORAL_API_KEY) options.apiKey = env.TEMPORAL_API_KEY;
  if (!wantsTls) return options;
  const tls: TLSConfig = {};
  if (env.TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = env.TEMPORAL_TLS_SERVER_NAME;
  if (env.TEMPORAL_TLS_CA_PATH)
    tls.serverRootCACertificate = readPem('TEMPORAL_TLS_CA_PATH', env.TEMPORAL_TLS_CA_PATH);
  if (certPath && keyPath)
    tls.clientCertPair = {
      crt: readPem('TEMPORAL_TLS_CERT_PATH', certPath),
      key: readPem('TEMPORAL_TLS_KEY_PATH', keyPath),
    };
  options.tls = tls;
  return options;
}

/** Reads a PEM file; a failure names the variable, never the file's content. */
function readPem(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new ConfigError([`${variable}: cannot read ${path} (${code})`]);
  }
}

/** A Temporal client's plugins: tracing's, when this process traces. */
export function temporalClientPlugins(): ClientPlugin[] {
  const tracing = currentTracing();
  return tracing ? [tracing.temporal] : [];
}

/**
 * How long a workflow start may take in all, the client's own retries of an unreachable or
 * refusing frontend included: without a bound, a frontend that refused the TLS handshake kept the
 * caller 80 s before its 503.
 */
export const START_DEADLINE_MS = 10_000;

/** Runs a workflow start (or a few attempts of one) within START_DEADLINE_MS from now. */
export function startWithin<T>(
  connection: ConnectionLike,
  start: () => Promise<T>,
  startBy?: number,
): Promise<T> {
  return connection.withDeadline(startBy ?? Date.now() + START_DEADLINE_MS, start);
}
