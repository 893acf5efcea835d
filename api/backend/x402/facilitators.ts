/**
 * The seven facilitators the discovery document lists (by kind; the API specification names the
 * branded ones only by what they are). Only Vigil's own facilitator (the self-hosted slot) is
 * configured in this deployment; the others are listed as not configured, never as live.
 */
export const FACILITATORS = [
  { name: 'vigil', kind: 'self-hosted facilitator (this deployment’s own; EIP-3009 on EVM)' },
  { name: 'exchange', kind: 'free exchange-operated facilitator, default for Base and Solana USDC' },
  { name: 'deferred', kind: 'deferred-settlement facilitator for Base and Solana' },
  { name: 'eip7702', kind: 'EIP-7702 facilitator, any EVM chain, low fee' },
  { name: 'cdn', kind: 'CDN-operated facilitator' },
  { name: 'multichain', kind: 'alternative multi-chain facilitator' },
  { name: 'sepa', kind: 'SEPA (EUR bank transfer) facilitator' },
] as const;
export type Facilitator = (typeof FACILITATORS)[number];

export async function facilitatorStatus(facilitator: Facilitator, vigilUrl: string) {
  const checked_at = new Date().toISOString();
  if (facilitator.name !== 'vigil') {
    return {
      name: facilitator.name,
      kind: facilitator.kind,
      status: 'not_configured' as const,
      detail: 'No endpoint or credentials for this facilitator are configured in this deployment.',
      checked_at,
    };
  }
  const known = probes.get(vigilUrl);
  if (known && Date.now() - known.at < PROBE_REUSE_MS) return { ...(await known.probe), checked_at };
  const probe = probeVigil(facilitator, vigilUrl);
  probes.set(vigilUrl, { at: Date.now(), probe });
  return { ...(await probe), checked_at };
}

/**
 * One /healthz probe of the facilitator serves every discovery request for a few seconds:
 * anonymous requests must not turn into one chain read each at the facilitator.
 */
const PROBE_REUSE_MS = 5_000;
const probes = new Map<string, { at: number; probe: ReturnType<typeof probeVigil> }>();

async function probeVigil(facilitator: Facilitator, vigilUrl: string) {
  const checked_at = new Date().toISOString();
  const started = performance.now();
  try {
    const response = await fetch(`${vigilUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
    const health = (await response.json()) as Record<string, unknown>;
    return {
      name: facilitator.name,
      kind: facilitator.kind,
      status: response.ok ? ('live' as const) : ('degraded' as const),
      latency_ms: Math.round(performance.now() - started),
      health,
      checked_at,
    };
  } catch {
    return {
      name: facilitator.name,
      kind: facilitator.kind,
      status: 'unreachable' as const,
      detail: 'The facilitator did not answer its /healthz.',
      checked_at,
    };
  }
}
