import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type Column, ColumnType, SCHEMA_VERSION, TABLES, type TableName, type Row } from '../tables.ts';

/**
 * Writes rows to Parquet with DuckDB's own writer: rows are appended to a staging table (the
 * appender is DuckDB's bulk path), then copied out per file, zstd-compressed, with the schema
 * version in the file's key-value metadata. Files are written beside their name and renamed, so a
 * reader never sees half a file.
 */
export class ParquetWriter {
  readonly #instance: Promise<DuckDBInstance>;

  constructor() {
    // An in-memory engine that never reads user SQL; its only files are the ones it writes.
    this.#instance = DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: '2',
    });
  }

  /** Writes `rows` of `table` into one file per UTC date (`fileOf` names it). */
  write(table: TableName, rows: readonly Row[], fileOf: (date: string) => string): Promise<string[]> {
    return this.writeColumns(table, TABLES[table].columns, rows, (row) => String(row.date), fileOf);
  }

  /** Writes rows of the given columns, one file per group (`fileOf` names it). */
  async writeColumns(
    tag: string,
    columns: readonly Column[],
    rows: readonly Row[],
    groupOf: (row: Row) => string,
    fileOf: (group: string) => string,
  ): Promise<string[]> {
    if (rows.length === 0) return [];
    const connection = await (await this.#instance).connect();
    try {
      const stage = `stage_${tag.replace(/\W/g, '_')}`;
      await connection.run(
        `CREATE OR REPLACE TEMP TABLE ${stage} (${columns.map(stagedColumn).join(', ')}, _group VARCHAR)`,
      );
      const appender = await connection.createAppender(stage);
      try {
        for (const row of rows) {
          appendRow(appender, columns, row);
          appender.appendVarchar(groupOf(row));
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
      const groups = [...new Set(rows.map(groupOf))].sort();
      const written: string[] = [];
      for (const group of groups) {
        const file = fileOf(group);
        await copyOut(
          connection,
          tag,
          `SELECT ${projection(columns)} FROM ${stage} WHERE _group = ${quote(group)}`,
          file,
        );
        written.push(file);
      }
      return written;
    } finally {
      connection.closeSync();
    }
  }

  /** A file with the table's columns and no rows. */
  async writeEmpty(table: TableName, file: string): Promise<void> {
    const connection = await (await this.#instance).connect();
    try {
      const columns = TABLES[table].columns;
      const empty = columns.map((column) => `CAST(NULL AS ${column.type}) AS ${column.name}`).join(', ');
      await copyOut(connection, table, `SELECT ${empty} LIMIT 0`, file);
    } finally {
      connection.closeSync();
    }
  }

  /** Runs a read over files this process wrote (stored block hashes, say). */
  async read(sql: string): Promise<Record<string, unknown>[]> {
    const connection = await (await this.#instance).connect();
    try {
      return (await connection.runAndReadAll(sql)).getRowObjectsJS();
    } finally {
      connection.closeSync();
    }
  }

  async close(): Promise<void> {
    (await this.#instance).closeSync();
  }
}

async function copyOut(connection: DuckDBConnection, tag: string, select: string, file: string) {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.part`;
  try {
    await connection.run(
      `COPY (${select}) TO ${quote(partial)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880, ` +
        `KV_METADATA {vigil_schema_version: '${SCHEMA_VERSION}', vigil_table: ${quote(tag)}})`,
    );
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Timestamps are staged as Unix seconds and dates as text, then cast on the way out. */
function stagedColumn(column: Column): string {
  const type =
    column.type === ColumnType.timestamp
      ? 'BIGINT'
      : column.type === ColumnType.date
        ? 'VARCHAR'
        : column.type;
  return `${column.name} ${type}`;
}

function projection(columns: readonly Column[]): string {
  return columns
    .map((column) =>
      column.type === ColumnType.timestamp
        ? `make_timestamp(${column.name} * 1000000) AS ${column.name}`
        : column.type === ColumnType.date
          ? `CAST(${column.name} AS DATE) AS ${column.name}`
          : column.name,
    )
    .join(', ');
}

function appendRow(appender: DuckDBAppender, columns: readonly Column[], row: Row): void {
  for (const column of columns) {
    const value = row[column.name];
    if (value === null || value === undefined) {
      appender.appendNull();
      continue;
    }
    switch (column.type) {
      case ColumnType.varchar:
      case ColumnType.date:
        appender.appendVarchar(String(value));
        break;
      case ColumnType.bigint:
      case ColumnType.timestamp:
        appender.appendBigInt(BigInt(value));
        break;
      case ColumnType.integer:
        appender.appendInteger(Number(value));
        break;
      case ColumnType.double:
        appender.appendDouble(Number(value));
        break;
    }
  }
}

/** A SQL string literal. Paths are Vigil's own (data folder, chain slug, range), quoted anyway. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
