import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';

/**
 * The label sets committed with Vigil, each under the licence kept beside this file: the
 * eth-labels snapshot (assembled by assembleEthLabels.ts) and the public label sets and token
 * lists assembled by assembleLabelSets.ts (see labelSets.ts). Each is one JSON header line, then
 * one `[address, chainId, label, name, kind]` array per line, gzipped.
 */
export const SNAPSHOT_IDS = [
  'eth-labels',
  'etherscan-labels',
  'forta-labelled-datasets',
  'token-directory',
  'via-tokenlists',
  'ethereum-lists-tokens',
  'smoldapp-tokenlists',
] as const;
export type SnapshotId = (typeof SNAPSHOT_IDS)[number];

export const snapshotFile = (id: SnapshotId): string =>
  fileURLToPath(new URL(`./data/${id}.ndjson.gz`, import.meta.url));
export const SNAPSHOT_FILE = snapshotFile('eth-labels');

const Header = z.object({
  source: z.enum(SNAPSHOT_IDS),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  rows: z.number(),
});
const Row = z.tuple([
  z.string().regex(/^0x[0-9a-f]{40}$/),
  z.number().int().positive(),
  z.string().min(1),
  z.string().nullable(),
  z.enum(['account', 'token']),
]);
export type SnapshotRow = z.infer<typeof Row>;

export interface Snapshot {
  id: SnapshotId;
  /** The source repository's commit the snapshot was assembled from. */
  commit: string;
  rows: SnapshotRow[];
}

const cached = new Map<SnapshotId, Snapshot>();

/** A snapshot, read and validated once per process. */
/**
 * The commit a snapshot was assembled from, from its header line alone: what the labels file's
 * name is made of, read at every analytics process start without parsing a hundred thousand rows.
 */
export function snapshotCommit(id: SnapshotId): string {
  const known = cached.get(id);
  if (known) return known.commit;
  const text = gunzipSync(readFileSync(snapshotFile(id))).toString('utf8');
  const header = Header.parse(JSON.parse(text.slice(0, text.indexOf('\n'))));
  if (header.source !== id) throw new Error(`the ${id} snapshot's header names ${header.source}`);
  return header.commit;
}

export function readSnapshot(id: SnapshotId = 'eth-labels'): Snapshot {
  const known = cached.get(id);
  if (known) return known;
  const lines = gunzipSync(readFileSync(snapshotFile(id)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  const header = Header.parse(JSON.parse(lines[0] ?? '{}'));
  if (header.source !== id) throw new Error(`the ${id} snapshot's header names ${header.source}`);
  const rows = lines.slice(1).map((line) => Row.parse(JSON.parse(line)));
  if (rows.length !== header.rows)
    throw new Error(`the ${id} snapshot holds ${rows.length} rows, its header says ${header.rows}`);
  const snapshot = { id, commit: header.commit, rows };
  cached.set(id, snapshot);
  return snapshot;
}

/** Writes a snapshot in the shape readSnapshot reads (the assemblers' output). */
export function snapshotBody(id: SnapshotId, commit: string, rows: readonly SnapshotRow[]): string {
  const lines = [
    JSON.stringify({ source: id, commit, rows: rows.length }),
    ...rows.map((row) => JSON.stringify(row)),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The normalised category of a source label. The source has hundreds of labels (project names,
 * `phish-hack`, `tornado-cash`, `binance`, ...); checks and stats need a few categories. The
 * first rule that matches wins, so a hack of an exchange (`upbit-hack`) is a hack.
 */
const CATEGORY_RULES: readonly (readonly [category: string, pattern: RegExp])[] = [
  ['sanctioned', /ofac|sanction|lazarus/],
  ['phish_hack', /phish|hack|exploit|scam|heist|drainer|fraud|ponzi|rug-?pull|fake|malicious/],
  ['mixer', /tornado|mixer|blender|sinbad|privacy/],
  ['blocked', /^blocked$|blacklist|blocklist/],
  [
    'exchange',
    /exchange|binance|coinbase|kraken|okx|okex|huobi|htx|bitfinex|bybit|kucoin|gate-io|gemini|bitstamp|upbit|bithumb|crypto-com|ftx|poloniex|bittrex|^cex/,
  ],
  ['bridge', /bridge|wormhole|multichain|layerzero|stargate|hop-protocol|across-protocol|celer|synapse/],
  ['mev_bot', /mev|sandwich|arbitrage-bot|^bot$/],
  ['deployer', /deployer/],
  ['burn', /genesis|burn|^null/],
  ['dex', /swap|dex|uniswap|sushi|curve|balancer|bancor|1inch|^0x|kyber|pancake|aggregator/],
  ['defi', /defi|lending|loans|aave|compound|maker|yield|staking|vault|pendle|synthetix|lido|liquid-staking/],
  ['token', /token|stablecoin|meme/],
];

export function categoryOf(label: string, kind: SnapshotRow[4]): string {
  const normalized = label.toLowerCase();
  for (const [category, pattern] of CATEGORY_RULES) if (pattern.test(normalized)) return category;
  return kind === 'token' ? 'token' : 'other';
}
