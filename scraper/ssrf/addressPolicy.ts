import ipaddr from 'ipaddr.js';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses a comma-separated allowlist of addresses or CIDR ranges (`127.0.0.1/32, ::1`). An
 * allowlisted address is reachable even when it is private: tests point the scraper at sites
 * they start on loopback. Production leaves it empty.
 */
export function parseAllowlist(value: string | undefined): Cidr[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const address = ipaddr.parse(entry);
      return [address, address.kind() === 'ipv4' ? 32 : 128] as Cidr;
    });
}

/** IANA's global unicast block: every IPv6 address Vigil may dial lies in it. */
const GLOBAL_UNICAST_V6: Cidr = ipaddr.parseCIDR('2000::/3');

/**
 * Why an address must not be dialled, or null when it is a public unicast address. IPv4-mapped,
 * NAT64 and 6to4 forms are judged by the IPv4 address they carry (ipaddr.process unwraps the
 * mapped form; the others are ranges of their own and never "unicast"), so `::ffff:127.0.0.1`,
 * `64:ff9b::a9fe:a9fe` and `2002:7f00:1::1` are all refused. Anything that is not plain global
 * unicast is refused: loopback, private, link-local (169.254.169.254, the cloud metadata
 * address, included), CGNAT 100.64/10, ULA fc00::/7 (fd00:ec2::254 included), multicast,
 * benchmarking, reserved, unspecified. IPv6 must also lie in 2000::/3: what ipaddr.js calls
 * "unicast" outside it (the deprecated IPv4-compatible `::7f00:1`, local-use NAT64
 * `64:ff9b:1::/48`, unassigned space) is refused too, since some stacks route it to IPv4.
 */
export function refusedAddressReason(address: string, allow: readonly Cidr[] = []): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  for (const [range, bits] of allow) {
    if (range.kind() === parsed.kind() && parsed.match(range, bits)) return null;
  }
  const range = parsed.range();
  if (range !== 'unicast') return `${range} address`;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'non-global IPv6 address';
  return null;
}

/** The ports the scraper dials: 80, 443 and what SCRAPER_ALLOWED_PORTS adds. */
export interface PortPolicy {
  allows(port: number): boolean;
  readonly description: string;
}

/**
 * Parses SCRAPER_ALLOWED_PORTS (`8080, 8443, 9000-9100`) into the port policy: 80 and 443 always,
 * and these besides. Anything else (a database on 5432, a cache on 6379, an admin port) is refused
 * even on a public address.
 */
export function parsePortPolicy(value: string | undefined): PortPolicy {
  const ranges: [number, number][] = [
    [80, 80],
    [443, 443],
  ];
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(entry);
    const low = Number(match?.[1]);
    const high = Number(match?.[2] ?? match?.[1]);
    if (!match || low < 1 || high > 65_535 || low > high)
      throw new Error(`${entry.slice(0, 32)} is not a port or a port range (1-65535)`);
    ranges.push([low, high]);
  }
  return {
    allows: (port) => ranges.some(([low, high]) => port >= low && port <= high),
    description: ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', '),
  };
}
