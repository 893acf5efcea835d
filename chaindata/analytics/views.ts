import path from 'node:path';
import { tableGlob } from '../storage/layout.ts';
import type { ChaindataLocation } from '../storage/location.ts';
import { quote } from '../storage/sql.ts';
import { TABLE_NAMES, TABLES } from '../tables.ts';

/** The labels' Parquet file(s): each process builds them on its local disk. */
export function labelsDir(location: ChaindataLocation): string {
  return path.join(location.localRoot, 'labels');
}

/**
 * The views user SQL and Vigil's own queries read. Each reads its table's files by glob at query
 * time, so files the indexer writes later are seen without reopening anything. `swaps` carries
 * the pool's tokens (from `pools`) so trades read without a join.
 */
export function viewDefinitions(location: ChaindataLocation): Map<string, string> {
  const { root } = location;
  const read = (glob: string) =>
    `read_parquet(${quote(glob)}, union_by_name = true, hive_partitioning = false)`;
  const views = new Map<string, string>();
  for (const table of TABLE_NAMES) {
    if (table === 'swaps') continue;
    views.set(table, `SELECT * FROM ${read(tableGlob(root, table))}`);
  }
  const swapColumns = TABLES.swaps.columns.map((column) => `s.${column.name}`).join(', ');
  views.set(
    'swaps',
    `SELECT ${swapColumns}, p.token0, p.token1 FROM ${read(tableGlob(root, 'swaps'))} AS s ` +
      `LEFT JOIN (SELECT chain, pool, any_value(token0) AS token0, any_value(token1) AS token1 ` +
      `FROM ${read(tableGlob(root, 'pools'))} GROUP BY chain, pool) AS p ON p.chain = s.chain AND p.pool = s.pool`,
  );
  views.set('labels', `SELECT * FROM ${read(path.join(labelsDir(location), '*.parquet'))}`);
  return views;
}
