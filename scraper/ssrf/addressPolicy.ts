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

/**
 * Why an address must not be dialled, or null when it is a public unicast address. IPv4-mapped,
 * NAT64 and 6to4 forms are judged by the IPv4 address they carry (ipaddr.process unwraps the
 * mapped form; the others are ranges of their own and never "unicast"), so `::ffff:127.0.0.1`,
 * `64:ff9b::a9fe:a9fe` and `2002:7f00:1::1` are all refused. Anything that is not plain global
 * unicast is refused: loopback, private, link-local (169.254.169.254, the cloud metadata
 * address, included), CGNAT 100.64/10, ULA fc00::/7 (fd00:ec2::254 included), multicast,
 * benchmarking, reserved, unspecified.
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
  if (range === 'unicast') return null;
  return `${range} address`;
}
