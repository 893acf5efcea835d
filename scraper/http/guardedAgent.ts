import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { bareHost, type EgressGuard } from '../ssrf/guard.ts';

export interface GuardedAgentOptions {
  /** Offer HTTP/2 over TLS (browsers do; the fingerprint tier uses it). */
  allowH2?: boolean;
  connectTimeoutMs?: number;
}

/**
 * An undici Agent whose every connection is made to an address the guard has approved: the host
 * is resolved by the guard (every record checked), the socket dials that very address (TLS keeps
 * the host name for SNI and certificate checks), and the connected socket's remote address is
 * checked once more. IP literals, which undici would never pass to a `lookup` hook, take the
 * same path.
 */
export function createGuardedAgent(guard: EgressGuard, options: GuardedAgentOptions = {}): Agent {
  const base = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    allowH2: options.allowH2 ?? false,
  });
  const connect: buildConnector.connector = (opts, callback) => {
    const host = bareHost(opts.hostname);
    try {
      guard.checkPort(Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80));
    } catch (refused) {
      callback(refused as Error, null);
      return;
    }
    guard.resolve(host).then(
      (resolved) => {
        const servername = opts.protocol === 'https:' && !isIP(host) ? (opts.servername ?? host) : undefined;
        base(
          { ...opts, hostname: resolved.address, ...(servername ? { servername } : {}) },
          (error, socket) => {
            if (error) return callback(error, null);
            const remote = socket.remoteAddress;
            try {
              if (remote) guard.checkAddress(remote);
            } catch (refused) {
              socket.destroy();
              return callback(refused as Error, null);
            }
            callback(null, socket);
          },
        );
      },
      (error: unknown) => callback(error as Error, null),
    );
  };
  return new Agent({
    connect,
    allowH2: options.allowH2 ?? false,
    keepAliveTimeout: 10_000,
    // One page at a time per origin connection; pages are small and many origins are visited.
    connections: 16,
  });
}
