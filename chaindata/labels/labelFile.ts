import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ParquetWriter } from '../storage/parquetWriter.ts';
import { type Column, ColumnType, type Row } from '../tables.ts';
import { labelsFileName, loadLabelRows } from './sources.ts';

export const LABEL_COLUMNS: readonly Column[] = [
  { name: 'address', type: ColumnType.varchar, doc: 'lowercase 0x address' },
  { name: 'chain', type: ColumnType.varchar, doc: 'chain slug the label is for (ethereum)' },
  { name: 'chain_id', type: ColumnType.bigint, doc: 'EVM chain id (some exceed 32 bits)' },
  {
    name: 'label',
    type: ColumnType.varchar,
    doc: "the source's own label (exchange, phish-hack, token-contract, ...)",
  },
  {
    name: 'category',
    type: ColumnType.varchar,
    doc: 'normalised category: exchange, phish_hack, token, burn, ...',
  },
  {
    name: 'name_tag',
    type: ColumnType.varchar,
    nullable: true,
    doc: 'the entity name, when the source has one',
  },
  { name: 'source', type: ColumnType.varchar, doc: 'source id and version, e.g. evm-labels@0.0.3' },
];

/**
 * Loads the labels into the analytics store: one Parquet file under `<root>/labels`, built from
 * the installed source packages when its name (which carries their versions) is not there yet.
 * Files of older versions are removed. Returns the number of rows written (0 when up to date).
 */
export async function ensureLabelsFile(root: string, writer: ParquetWriter): Promise<number> {
  const dir = path.join(root, 'labels');
  const file = path.join(dir, labelsFileName());
  if (existsSync(file)) return 0;
  const rows = loadLabelRows() as unknown as Row[];
  await writer.writeColumns(
    'labels',
    LABEL_COLUMNS,
    rows,
    () => 'all',
    () => file,
  );
  for (const name of await readdir(dir)) {
    if (name.endsWith('.parquet') && name !== path.basename(file))
      await rm(path.join(dir, name), { force: true });
  }
  return rows.length;
}
