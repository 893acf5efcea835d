import { SCHEMA_VERSION, type TableName } from '../tables.ts';
import { joinPath } from './location.ts';

/**
 * Where the Parquet files live, a hive-style layout any engine reads:
 *
 *   <root>/v<schema>/<table>/chain=<slug>/date=<YYYY-MM-DD>/b<from>-<to>.parquet
 *
 * One file per table, UTC date and indexed block range. The range is in the name, so re-indexing
 * a range replaces its files (rows are written once) and a reorg removes exactly the ranges at or
 * after the fork. `_empty.parquet` at each table's root has the columns and no rows, so a view over
 * a table nothing has been indexed into yet still answers.
 */
export interface BlockRange {
  from: number;
  to: number;
}

const DIGITS = 12;
const RANGE_FILE = /^b(\d{12})-(\d{12})\.parquet$/;

function versionRoot(root: string): string {
  return joinPath(root, `v${SCHEMA_VERSION}`);
}

export function tableRoot(root: string, table: TableName): string {
  return joinPath(versionRoot(root), table);
}

export function chainDir(root: string, table: TableName, chain: string): string {
  return joinPath(tableRoot(root, table), `chain=${chain}`);
}

export function rangeFile(root: string, table: TableName, chain: string, date: string, range: BlockRange) {
  return joinPath(chainDir(root, table, chain), `date=${date}`, rangeFileName(range));
}

export function rangeFileName(range: BlockRange): string {
  return `b${String(range.from).padStart(DIGITS, '0')}-${String(range.to).padStart(DIGITS, '0')}.parquet`;
}

export function parseRangeFileName(name: string): BlockRange | undefined {
  const match = RANGE_FILE.exec(name);
  if (!match?.[1] || !match[2]) return undefined;
  return { from: Number(match[1]), to: Number(match[2]) };
}

/** The glob a view reads a table through (every chain, every date, plus the empty schema file). */
export function tableGlob(root: string, table: TableName): string {
  return joinPath(tableRoot(root, table), '**', '*.parquet');
}

export function emptyFile(root: string, table: TableName): string {
  return joinPath(tableRoot(root, table), '_empty.parquet');
}

export function overlaps(a: BlockRange, b: BlockRange): boolean {
  return a.from <= b.to && b.from <= a.to;
}

/** Chain slugs are registry ids; checked again here because they become folder names. */
export function assertChainSlug(chain: string): void {
  if (!/^[a-z0-9_]{1,32}$/.test(chain)) throw new Error(`not a chain slug: ${chain}`);
}
