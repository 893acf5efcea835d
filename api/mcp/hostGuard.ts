import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * DNS-rebinding protection for the MCP endpoints, as the MCP transport specification asks of
 * every server ("MUST validate the Origin header"): a page on a hostile site whose name was
 * re-pointed at this host's address reaches it with its own name in Host and Origin. Requests
 * naming any other host are refused before the protocol server sees them.
 *
 * Allowed: the public URL's host name, the loopback names (a server on a developer's machine is
 * the one rebinding attacks aim at) and any listed in MCP_ALLOWED_HOSTS (a proxy that rewrites
 * Host). Ports are not compared: rebinding changes the name, not the port. A request without
 * Origin (every non-browser client) is judged by its Host alone.
 */
export function hostGuard(publicUrl: string, extraHosts: readonly string[] = []) {
  const allowed = new Set(
    [new URL(publicUrl).hostname, 'localhost', '127.0.0.1', '[::1]', ...extraHosts].map((host) =>
      host.trim().toLowerCase(),
    ),
  );

  const refusal = (request: FastifyRequest): string | undefined => {
    const host = hostnameOf(request.headers.host);
    if (host === undefined || !allowed.has(host)) return 'Host';
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    let originHost: string;
    try {
      originHost = new URL(origin).hostname.toLowerCase();
    } catch {
      return 'Origin';
    }
    return allowed.has(originHost) ? undefined : 'Origin';
  };

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = refusal(request);
    if (header === undefined) return;
    await reply
      .code(403)
      .type('application/json')
      .send({
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: `Forbidden: this server does not answer requests with that ${header}.`,
        },
        id: null,
      });
  };
}

/** The name in a Host header, lowercased, without its port (an IPv6 literal keeps its brackets). */
function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
