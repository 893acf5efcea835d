import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';

/**
 * The eth-labels snapshot committed with Vigil (MIT, see LICENSE.eth-labels): labels of EVM
 * addresses on Ethereum and ten other chains, assembled by assembleEthLabels.ts. One JSON header
 * line, then one `[address, chainId, label, name, kind]` array per line, gzipped.
 */
export const SNAPSHOT_FILE = fileURLToPath(new URL('./data/eth-labels.ndjson.gz', import.meta.url));

const Header = z.object({
  source: z.literal('eth-labels'),
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
  /** The eth-labels commit the snapshot was assembled from. */
  commit: string;
  rows: SnapshotRow[];
}

let cached: Snapshot | undefined;

/** The snapshot, read and validated once per process. */
export function readSnapshot(): Snapshot {
  if (cached) return cached;
  const lines = gunzipSync(readFileSync(SNAPSHOT_FILE)).toString('utf8').split('\n').filter(Boolean);
  const header = Header.parse(JSON.parse(lines[0] ?? '{}'));
  const rows = lines.slice(1).map((line) => Row.parse(JSON.parse(line)));
  if (rows.length !== header.rows)
    throw new Error(`the labels snapshot holds ${rows.length} rows, its header says ${header.rows}`);
  cached = { commit: header.commit, rows };
  return cached;
}

/**
 * The normalised category of a source label. The source has hundreds of labels (project names,
 * `phish-hack`, `tornado-cash`, `binance`, ...); checks and stats need a few categories. The
 * first rule that matches wins, so a hack of an exchange (`upbit-hack`) is a hack.
 */
const CATEGORY_RULES: readonly (readonly [category: string, pattern: RegExp])[] = [
  ['sanctioned', /ofac|sanction|lazarus/],
  ['phish_hack', /phish|hack|exploit|scam|heist|drainer|fraud|ponzi|rug-?pull|fake/],
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
