import type { Analytics } from '../analytics/sandbox.ts';
import { labelsOf, labelStats, type LabelRecord, queryLabels } from '../labels/labels.ts';
import { SCHEMA_VERSION, TABLE_NAMES } from '../tables.ts';

const one = async (engine: Analytics, sql: string, values: Record<string, string> = {}) =>
  (await engine.internal(sql, values, 1)).rows[0] ?? {};
const all = async (engine: Analytics, sql: string, values: Record<string, string> = {}, max = 100) =>
  (await engine.internal(sql, values, max)).rows;

/** What the index holds: chains with their indexed span, rows per table, the labels. */
export async function catalogStats(engine: Analytics) {
  const [chains, counts, labels] = await Promise.all([
    all(
      engine,
      `SELECT chain, min(block_number) AS first_block, max(block_number) AS last_block, count(*) AS blocks,
              max(block_time) AS last_block_time FROM blocks GROUP BY chain ORDER BY chain`,
    ),
    Promise.all(
      TABLE_NAMES.map(
        async (table) =>
          [table, Number((await one(engine, `SELECT count(*) AS n FROM ${table}`)).n)] as const,
      ),
    ),
    labelStats(engine),
  ]);
  return {
    schema_version: SCHEMA_VERSION,
    chains: chains.map((row) => ({
      chain: String(row.chain),
      first_block: Number(row.first_block),
      last_block: Number(row.last_block),
      blocks: Number(row.blocks),
      last_block_time: row.last_block_time === null ? null : toIso(row.last_block_time),
    })),
    rows: Object.fromEntries(counts),
    labels: {
      total: labels.total_labels,
      addresses: labels.unique_addresses,
      by_category: labels.by_category,
    },
  };
}

/** A token as the index knows it: creation, pools, holders, activity, labels. */
export async function tokenEntry(engine: Analytics, chain: string, address: string) {
  const values = { chain, token: address.toLowerCase() };
  const [deployment, activity, pools, holders, labels] = await Promise.all([
    one(
      engine,
      `SELECT deployer, tx_hash, block_number, block_time, bytecode_hash, code_size FROM deployments WHERE chain = $chain AND contract_address = $token`,
      values,
    ),
    one(
      engine,
      `SELECT count(*) AS transfers, min(block_number) AS first_block, min(block_time) AS first_time,
              max(block_number) AS last_block, max(block_time) AS last_time
       FROM transfers WHERE chain = $chain AND token = $token`,
      values,
    ),
    all(
      engine,
      `SELECT pool, protocol, factory, token0, token1, fee, block_number, tx_hash FROM pools WHERE chain = $chain AND (token0 = $token OR token1 = $token) ORDER BY block_number`,
      values,
    ),
    one(engine, `SELECT count(*) AS n FROM (${balancesSql()}) WHERE balance > 0`, values),
    labelsOf(engine, [address]),
  ]);
  const transfers = Number(activity.transfers ?? 0);
  if (deployment.tx_hash === undefined && transfers === 0 && pools.length === 0) return null;
  return {
    chain,
    address: values.token,
    first_seen: firstSeen(deployment, activity),
    deployer: (deployment.deployer as string | undefined) ?? null,
    deployment:
      deployment.tx_hash === undefined
        ? null
        : {
            ...deployment,
            block_time: toIso(deployment.block_time),
            block_number: Number(deployment.block_number),
          },
    pools: pools.map((pool) => ({ ...pool, block_number: Number(pool.block_number) })),
    holders_count: Number(holders.n ?? 0),
    transfers_count: transfers,
    last_activity:
      activity.last_block === null || activity.last_block === undefined
        ? null
        : { block: Number(activity.last_block), time: toIso(activity.last_time) },
    labels: labels.get(values.token) ?? [],
  };
}

/** A wallet as the index knows it: activity, who funded it first (with that funder's labels), what it deployed. */
export async function walletEntry(engine: Analytics, chain: string, address: string) {
  const values = { chain, wallet: address.toLowerCase() };
  const [activity, funder, deployed, tokens] = await Promise.all([
    one(
      engine,
      `SELECT count(*) FILTER (WHERE from_address = $wallet) AS sent, count(*) FILTER (WHERE to_address = $wallet) AS received,
              min(block_number) AS first_block, min(block_time) AS first_time, max(block_number) AS last_block, max(block_time) AS last_time
       FROM transfers WHERE chain = $chain AND (from_address = $wallet OR to_address = $wallet)`,
      values,
    ),
    one(
      engine,
      `SELECT from_address, tx_hash, block_number, value_raw FROM transfers
       WHERE chain = $chain AND to_address = $wallet AND kind = 'native'
       ORDER BY block_number, tx_index LIMIT 1`,
      values,
    ),
    all(
      engine,
      `SELECT contract_address, tx_hash, block_number, bytecode_hash FROM deployments WHERE chain = $chain AND deployer = $wallet ORDER BY block_number`,
      values,
    ),
    one(
      engine,
      `SELECT count(DISTINCT token) AS n FROM transfers WHERE chain = $chain AND (from_address = $wallet OR to_address = $wallet) AND token IS NOT NULL`,
      values,
    ),
  ]);
  const sent = Number(activity.sent ?? 0);
  const received = Number(activity.received ?? 0);
  if (sent + received === 0 && deployed.length === 0) return null;
  const funderAddress = funder.from_address as string | undefined;
  const labels = await labelsOf(engine, funderAddress ? [values.wallet, funderAddress] : [values.wallet]);
  return {
    chain,
    address: values.wallet,
    first_seen:
      activity.first_block === null
        ? null
        : { block: Number(activity.first_block), time: toIso(activity.first_time) },
    last_activity:
      activity.last_block === null
        ? null
        : { block: Number(activity.last_block), time: toIso(activity.last_time) },
    transfers: { sent, received },
    tokens_touched: Number(tokens.n ?? 0),
    funded_by: funderAddress
      ? {
          address: funderAddress,
          tx_hash: funder.tx_hash,
          block_number: Number(funder.block_number),
          value_raw: funder.value_raw,
          labels: labels.get(funderAddress) ?? [],
        }
      : null,
    deployed: deployed.map((row) => ({ ...row, block_number: Number(row.block_number) })),
    labels: labels.get(values.wallet) ?? [],
  };
}

/** Search: an address finds its token, wallet and label entries; text finds labels by name. */
export async function catalogSearch(engine: Analytics, query: string, limit: number) {
  const q = query.trim();
  const hits: {
    kind: 'token' | 'wallet' | 'pool' | 'label';
    chain: string;
    address: string;
    name: string | null;
    detail: unknown;
  }[] = [];
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) {
    const address = q.toLowerCase();
    const [tokens, pools, wallets, labels] = await Promise.all([
      all(
        engine,
        `SELECT DISTINCT chain FROM transfers WHERE token = $a UNION SELECT DISTINCT chain FROM deployments WHERE contract_address = $a`,
        { a: address },
      ),
      all(engine, `SELECT chain, token0, token1, protocol FROM pools WHERE pool = $a`, { a: address }),
      all(engine, `SELECT DISTINCT chain FROM transfers WHERE from_address = $a OR to_address = $a`, {
        a: address,
      }),
      labelsOf(engine, [address]),
    ]);
    for (const row of tokens)
      hits.push({ kind: 'token', chain: String(row.chain), address, name: null, detail: null });
    for (const row of pools)
      hits.push({ kind: 'pool', chain: String(row.chain), address, name: null, detail: row });
    for (const row of wallets)
      hits.push({ kind: 'wallet', chain: String(row.chain), address, name: null, detail: null });
    for (const label of labels.get(address) ?? []) hits.push(labelHit(label));
  } else if (q.length >= 2) {
    for (const label of await queryLabels(engine, { name: q, limit })) hits.push(labelHit(label));
  }
  return { query: q, count: Math.min(hits.length, limit), hits: hits.slice(0, limit) };
}

function labelHit(label: LabelRecord) {
  return {
    kind: 'label' as const,
    chain: label.chain,
    address: label.address,
    name: label.name_tag,
    detail: { label: label.label, category: label.category, source: label.source },
  };
}

/** Balances from the indexed transfers (exact while they fit 128 bits; past that, NULL). */
export function balancesSql(): string {
  return `SELECT address, sum(delta) AS balance, sum(delta_f) AS balance_f FROM (
      SELECT to_address AS address, TRY_CAST(value_raw AS HUGEINT) AS delta, value AS delta_f FROM transfers WHERE chain = $chain AND token = $token AND kind = 'erc20'
      UNION ALL
      SELECT from_address, -TRY_CAST(value_raw AS HUGEINT), -value FROM transfers WHERE chain = $chain AND token = $token AND kind = 'erc20'
    ) GROUP BY address`;
}

function firstSeen(deployment: Record<string, unknown>, activity: Record<string, unknown>) {
  if (deployment.block_number !== undefined && deployment.block_number !== null)
    return { block: Number(deployment.block_number), time: toIso(deployment.block_time), via: 'deployment' };
  if (activity.first_block !== null && activity.first_block !== undefined)
    return { block: Number(activity.first_block), time: toIso(activity.first_time), via: 'transfer' };
  return null;
}

/** DuckDB's JSON timestamps read '2026-01-01 00:00:00' (UTC); the API speaks ISO 8601. */
function toIso(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value;
  return /^\d{4}-\d{2}-\d{2} /.test(text) ? `${text.replace(' ', 'T')}Z` : text;
}
