import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type Cidr, parsePortPolicy, type PortPolicy, refusedAddressReason } from './addressPolicy.ts';

/** The URL, or where it leads, is not one the scraper may fetch. Terminal: no tier can help. */
export class UrlRefusedError extends Error {
  override readonly name = 'UrlRefusedError';
}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** A resolver that does not answer within this is treated like a name that does not resolve. */
const LOOKUP_TIMEOUT_MS = 5_000;

const BLOCKED_HOSTNAMES = [/^localhost\.?$/i, /\.localhost\.?$/i, /^metadata\.google\.internal\.?$/i];

/**
 * The egress guard every tier goes through: http(s) only, no credentials in URLs, only the ports
 * of the port policy (80, 443 and SCRAPER_ALLOWED_PORTS), and every address a host resolves to
 * must be public (all of them: one private record refuses the host, so DNS answers cannot be
 * mixed to slip one in). The address checked is the address dialled (callers pin it), so a second
 * resolution cannot rebind the name.
 *
 * A name that does not resolve and a name that resolves to an address the scraper may not reach
 * are refused with the same words: an answer never tells a caller which internal names exist or
 * where they point. (A literal address is judged in the open: the caller already knows it.)
 */
export class EgressGuard {
  readonly #allow: readonly Cidr[];
  readonly #ports: PortPolicy;
  readonly #lookup: Lookup;

  constructor(options: { allow?: readonly Cidr[]; ports?: PortPolicy; lookup?: Lookup } = {}) {
    this.#allow = options.allow ?? [];
    this.#ports = options.ports ?? parsePortPolicy(undefined);
    this.#lookup = options.lookup ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  }

  /** Refuses a port outside the policy. */
  checkPort(port: number): void {
    if (!Number.isInteger(port) || !this.#ports.allows(port))
      throw new UrlRefusedError(`port ${port} is not allowed (allowed: ${this.#ports.description})`);
  }

  /** Parses and checks a URL's shape (not its addresses). */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlRefusedError('not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UrlRefusedError(`scheme ${url.protocol.replace(':', '')} is not allowed`);
    if (url.username || url.password) throw new UrlRefusedError('credentials in URLs are not allowed');
    if (!url.hostname) throw new UrlRefusedError('the URL has no host');
    this.checkPort(url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);
    const host = bareHost(url.hostname);
    if (
      !isIP(host) &&
      BLOCKED_HOSTNAMES.some((pattern) => pattern.test(host)) &&
      !this.#allowsLoopbackNames()
    )
      throw new UrlRefusedError(`host ${host} is not allowed`);
    return url;
  }

  /** Checks one address about to be dialled. */
  checkAddress(address: string): void {
    const reason = refusedAddressReason(address, this.#allow);
    if (reason) throw new UrlRefusedError(`it resolves to a ${reason}`);
  }

  /** Resolves a host, refuses it if any address is not public, and returns the one to dial. */
  async resolve(hostname: string): Promise<ResolvedHost> {
    const host = bareHost(hostname);
    const literal = isIP(host);
    if (literal) {
      this.checkAddress(host);
      return { address: host, family: literal === 6 ? 6 : 4 };
    }
    // One answer for every way a name can fail: no records, no answer in time, or a record
    // the scraper may not dial.
    const unreachable = () => new UrlRefusedError(`host ${host} does not resolve to a public address`);
    let records: { address: string; family: number }[];
    let timer: NodeJS.Timeout | undefined;
    try {
      records = await Promise.race([
        this.#lookup(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS);
        }),
      ]);
    } catch {
      throw unreachable();
    } finally {
      clearTimeout(timer);
    }
    if (records.length === 0) throw unreachable();
    if (records.some((record) => refusedAddressReason(record.address, this.#allow) !== null))
      throw unreachable();
    const first = records[0] as { address: string; family: number };
    return { address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  /** Checks the URL and resolves its host: what every request and every redirect hop goes through. */
  async checkTarget(raw: string): Promise<{ url: URL; resolved: ResolvedHost }> {
    const url = this.checkUrl(raw);
    return { url, resolved: await this.resolve(url.hostname) };
  }

  /** `localhost` names are allowed only when loopback itself is allowlisted (tests). */
  #allowsLoopbackNames(): boolean {
    return refusedAddressReason('127.0.0.1', this.#allow) === null;
  }
}

/** `[::1]` → `::1`: URL hostnames keep the brackets of IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
