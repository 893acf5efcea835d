import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Capability, CHAINS, hasCapability } from '../chains/registry.ts';
import { catalogStats, describeTool, PRICE_TIER_RANGES_USD, TOOLS } from './index.ts';

describe('the tool catalog', () => {
  it('prices every tool inside its tier and gives every paid tool 1 to 5 trials (more with a wallet)', () => {
    for (const tool of TOOLS) {
      const range = PRICE_TIER_RANGES_USD[tool.tier];
      expect(tool.priceUsd, tool.name).toBeGreaterThanOrEqual(range.min);
      expect(tool.priceUsd, tool.name).toBeLessThanOrEqual(range.max);
      if (tool.priceUsd > 0) {
        expect(tool.trials.fingerprint, tool.name).toBeGreaterThanOrEqual(1);
        expect(tool.trials.wallet, tool.name).toBeLessThanOrEqual(5);
        expect(tool.trials.wallet, tool.name).toBeGreaterThanOrEqual(tool.trials.fingerprint);
      }
    }
    expect(new Set(TOOLS.map((tool) => tool.name)).size).toBe(TOOLS.length);
  });

  it('computes its counts and price range from the declarations', () => {
    const paid = TOOLS.filter((tool) => tool.priceUsd > 0);
    expect(catalogStats()).toEqual({
      total_tools: TOOLS.length,
      paid_tools: paid.length,
      free_tools: TOOLS.length - paid.length,
      price_range_usd: {
        min: Math.min(...paid.map((tool) => tool.priceUsd)),
        max: Math.max(...paid.map((tool) => tool.priceUsd)),
      },
      free_trials: true,
    });
  });

  it('derives token tool chains from the registry and JSON Schema from zod', () => {
    const scanChains = CHAINS.filter((chain) => hasCapability(chain, Capability.tokenScan)).map(
      (chain) => chain.id,
    );
    const risk = describeTool(TOOLS[0]);
    expect(risk.chains.map((chain) => chain.id)).toEqual(scanChains);
    expect(risk.chains.map((chain) => chain.id)).not.toContain('bitcoin');
    const schema = risk.input_schema as { required: string[]; properties: { chain: { enum: string[] } } };
    expect(schema.required).toEqual(['chain', 'address']);
    expect(schema.properties.chain.enum).toEqual(scanChains);
  });

  it('is listed tool by tool, with prices and trials, in docs/x402.md', () => {
    const docs = readFileSync(new URL('../../docs/x402.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| `([a-z_]+)` \| (\$[\d.]+|free) \| (\w+) \| ([^|]+) \|/gmu)].map(
      ([, name, price, tier, trials]) => ({ name, price, tier, trials: trials?.trim() }),
    );
    expect(rows).toEqual(
      TOOLS.map((tool) => ({
        name: tool.name,
        price: tool.priceUsd > 0 ? `$${tool.priceUsd}` : 'free',
        tier: tool.tier,
        trials: tool.priceUsd > 0 ? `${tool.trials.fingerprint} / ${tool.trials.wallet}` : '—',
      })),
    );
  });
});
