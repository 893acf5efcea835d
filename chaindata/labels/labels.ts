import type { Analytics } from '../analytics/sandbox.ts';

export interface LabelQuery {
  address?: string | undefined;
  label?: string | undefined;
  category?: string | undefined;
  /** Case-insensitive substring of the name tag. */
  name?: string | undefined;
  chain?: string | undefined;
  limit: number;
}

export interface LabelRecord {
  address: string;
  chain: string;
  label: string;
  category: string;
  name_tag: string | null;
  source: string;
}

/** Labels by address, label or category, and name substring; all filters combine. */
export async function queryLabels(engine: Analytics, query: LabelQuery): Promise<LabelRecord[]> {
  const where: string[] = [];
  const values: Record<string, string> = {};
  if (query.address) {
    where.push('address = $address');
    values.address = query.address.toLowerCase();
  }
  if (query.label) {
    where.push('label = $label');
    values.label = query.label.toLowerCase();
  }
  if (query.category) {
    where.push('category = $category');
    values.category = query.category.toLowerCase();
  }
  if (query.chain) {
    where.push('chain = $chain');
    values.chain = query.chain;
  }
  if (query.name) {
    // ILIKE with the pattern's own wildcards escaped: the name is matched literally.
    where.push("name_tag ILIKE $name ESCAPE '\\'");
    values.name = `%${query.name.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  }
  const result = await engine.internal(
    `SELECT address, chain, label, category, name_tag, source FROM labels` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY address, label LIMIT ${Math.max(1, Math.min(query.limit, 1_000))}`,
    values,
  );
  return result.rows as unknown as LabelRecord[];
}

export interface LabelStats {
  total_labels: number;
  unique_addresses: number;
  by_category: Record<string, number>;
  by_label: Record<string, number>;
  by_source: Record<string, number>;
  by_chain: Record<string, number>;
}

export async function labelStats(engine: Analytics): Promise<LabelStats> {
  const [totals, categories, labels, sources, chains] = await Promise.all([
    engine.internal('SELECT count(*) AS total, count(DISTINCT address) AS addresses FROM labels'),
    engine.internal('SELECT category AS key, count(*) AS n FROM labels GROUP BY 1 ORDER BY 2 DESC'),
    engine.internal('SELECT label AS key, count(*) AS n FROM labels GROUP BY 1 ORDER BY 2 DESC'),
    engine.internal('SELECT source AS key, count(*) AS n FROM labels GROUP BY 1 ORDER BY 2 DESC'),
    engine.internal('SELECT chain AS key, count(*) AS n FROM labels GROUP BY 1 ORDER BY 2 DESC'),
  ]);
  const counts = (rows: Record<string, unknown>[]) =>
    Object.fromEntries(rows.map((row) => [String(row.key), Number(row.n)]));
  return {
    total_labels: Number(totals.rows[0]?.total ?? 0),
    unique_addresses: Number(totals.rows[0]?.addresses ?? 0),
    by_category: counts(categories.rows),
    by_label: counts(labels.rows),
    by_source: counts(sources.rows),
    by_chain: counts(chains.rows),
  };
}

/** Labels of many addresses at once (evidence for scans and wallet analysis). */
export async function labelsOf(
  engine: Analytics,
  addresses: readonly string[],
): Promise<Map<string, LabelRecord[]>> {
  const wanted = [...new Set(addresses.map((address) => address.toLowerCase()))].filter((address) =>
    /^0x[0-9a-f]{40}$/.test(address),
  );
  const out = new Map<string, LabelRecord[]>();
  if (wanted.length === 0) return out;
  // Checked hex only: inlined as literals in a list (parameters do not bind lists here).
  const result = await engine.internal(
    `SELECT address, chain, label, category, name_tag, source FROM labels WHERE address IN (${wanted.map((address) => `'${address}'`).join(', ')})`,
  );
  for (const row of result.rows as unknown as LabelRecord[])
    out.set(row.address, [...(out.get(row.address) ?? []), row]);
  return out;
}
