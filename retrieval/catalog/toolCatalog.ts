import { describeTool, TOOLS, type ToolDefinition } from '../../core/catalog/index.ts';
import type { Embedder } from '../embedding/embedder.ts';
import { indexNow } from '../ingest/indexNow.ts';
import type { Retriever } from '../search/retriever.ts';
import type { ChunkStore } from '../store/chunkStore.ts';

const TOOL_CATALOG_CATEGORY = 'tool_catalog';
const ECOSYSTEM = 'vigil';

function inputFields(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<
    string,
    { description?: string; enum?: unknown[]; type?: string }
  >;
  return Object.entries(properties).map(([name, property]) => {
    const values = property.enum ? ` (one of ${property.enum.join(', ')})` : '';
    return `- \`${name}\` ${property.type ?? ''}: ${property.description ?? ''}${values}`.trimEnd();
  });
}

/** One tool as a short document: what it does, its input, price and chains, as a caller asks about them. */
function toolDocument(tool: ToolDefinition): string {
  const described = describeTool(tool);
  const price = described.paid ? `$${described.price_usd} per call (${described.tier} tier)` : 'free';
  const chains =
    described.chains.length > 0
      ? described.chains.map((chain) => chain.id).join(', ')
      : 'none (chain-independent)';
  const fields = inputFields(described.input_schema);
  return [
    `# ${tool.name}: ${tool.title}`,
    '',
    tool.description,
    '',
    `Price: ${price}. Sources: ${tool.sources}. Chains: ${chains}.`,
    '',
    ...(fields.length > 0 ? ['Input:', ...fields] : ['Input: none.']),
  ].join('\n');
}

/** Embeds every tool of the catalog (unchanged ones are left as they are); returns the count. */
export async function indexToolCatalog(
  store: ChunkStore,
  embedder: Embedder,
  chunkChars: number,
): Promise<number> {
  for (const tool of TOOLS) {
    await indexNow(
      store,
      embedder,
      {
        docId: `tool:${tool.name}`,
        path: `catalog/tools/${tool.name}`,
        ecosystem: ECOSYSTEM,
        category: TOOL_CATALOG_CATEGORY,
        markdown: toolDocument(tool),
      },
      // A tool's document is one chunk, whatever its length.
      Math.max(chunkChars, 4_000),
    );
  }
  return TOOLS.length;
}

/** Tools matching a natural-language question, best first, with their schemas and prices. */
export async function searchToolCatalog(retriever: Retriever, query: string, topK: number) {
  const hits = await retriever.search({ query, topK, filters: { category: TOOL_CATALOG_CATEGORY } });
  return hits.flatMap((hit) => {
    const tool = TOOLS.find((entry) => `tool:${entry.name}` === hit.row.doc_id);
    return tool ? [{ score: hit.score, ...describeTool(tool) }] : [];
  });
}
