import { z } from 'zod';
import { findChain } from '../chains/registry.ts';
import { PRICE_TIER_RANGES_USD, type ToolDefinition } from './schema.ts';
import { isPaid, mcpToolName, TOOLS } from './tools.ts';

export * from './schema.ts';
export * from './tools.ts';

/** Counts and price range for discovery documents, computed from the catalog. */
export function catalogStats(tools: readonly ToolDefinition[] = TOOLS) {
  const paid = tools.filter(isPaid);
  const prices = paid.map((tool) => tool.priceUsd);
  return {
    total_tools: tools.length,
    paid_tools: paid.length,
    free_tools: tools.length - paid.length,
    price_range_usd: {
      min: prices.length ? Math.min(...prices) : 0,
      max: prices.length ? Math.max(...prices) : 0,
    },
    free_trials: paid.every((tool) => tool.trials.fingerprint > 0),
  };
}

/** The tool's input as JSON Schema (derived from its zod schema). */
function toolInputJsonSchema(tool: ToolDefinition): Record<string, unknown> {
  return z.toJSONSchema(tool.input, { target: 'draft-2020-12' });
}

/** A tool as listed in pricing and discovery documents. */
export function describeTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    mcp_name: mcpToolName(tool),
    version: tool.version,
    deprecated: tool.deprecated ?? null,
    title: tool.title,
    description: tool.description,
    method: 'POST',
    path: `/api/v1/x402-tools/${tool.name}`,
    price_usd: tool.priceUsd,
    tier: tool.tier,
    tier_range_usd: PRICE_TIER_RANGES_USD[tool.tier],
    paid: isPaid(tool),
    trials: { per_fingerprint: tool.trials.fingerprint, per_wallet: tool.trials.wallet },
    chains: tool.chains.map((id) => ({ id, caip2: findChain(id)?.caip2 ?? null })),
    input_schema: toolInputJsonSchema(tool),
  };
}

/** What mcp_discover answers: every tool with its names, version and deprecation, and the counts. */
export function toolDiscovery(server: {
  name: string;
  version: string;
  protocolVersions: readonly string[];
}) {
  const catalog: readonly ToolDefinition[] = TOOLS;
  const tools = catalog.map((tool) => ({
    name: mcpToolName(tool),
    rest_name: tool.name,
    version: tool.version,
    deprecated: tool.deprecated ?? null,
    title: tool.title,
    paid: isPaid(tool),
    price_usd: tool.priceUsd,
    tier: tool.tier,
  }));
  return {
    server: { name: server.name, version: server.version, protocol_versions: [...server.protocolVersions] },
    tools,
    counts: {
      tools: tools.length,
      deprecated: tools.filter((tool) => tool.deprecated !== null).length,
      paid: tools.filter((tool) => tool.paid).length,
    },
  };
}
