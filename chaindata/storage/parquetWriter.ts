import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type Column, ColumnType, SCHEMA_VERSION, TABLES, type TableName, type Row } from '../tables.ts';
import { type DataFiles, dataFiles, localDataFiles } from './dataFiles.ts';
import { attachStorage, storageOptions } from './duckdbStorage.ts';
import { type LocationLike, locationOf } from './location.ts';
import { quote } from './sql.ts';

/**
 * Writes rows to Parquet with DuckDB's own writer: rows are appended to a staging table (the
 * appender is DuckDB's bulk path), then copied out per file, zstd-compressed, with the schema
 * version in the file's key-value metadata. Files are written locally and then published (renamed
 * beside their name, or uploaded to object storage whole), so a reader never sees half a file.
 */
export class ParquetWriter {
  readonly #instance: Promise<DuckDBInstance>;
  readonly #files: DataFiles;

  /** Without a location, writes and reads local files only (the labels file, tools). */
  constructor(where?: LocationLike) {
    const location = where === undefined ? undefined : locationOf(where);
    this.#files = location ? dataFiles(location) : localDataFiles;
    // An in-memory engine that never reads user SQL; its only files are the ones it writes.
    this.#instance = DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: '2',
      ...(location ? storageOptions(location) : {}),
    }).then(async (instance) => {
      if (location) {
        const connection = await instance.connect();
        try {
          await attachStorage(connection, location);
        } finally {
          connection.closeSync();
        }
      }
      return instance;
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
          this.#files,
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
      await copyOut(this.#files, connection, table, `SELECT ${empty} LIMIT 0`, file);
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

async function copyOut(
  files: DataFiles,
  connection: DuckDBConnection,
  tag: string,
  select: string,
  file: string,
) {
  const staged = await files.staging(file);
  try {
    await connection.run(
      `COPY (${select}) TO ${quote(staged)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880, ` +
        `KV_METADATA {vigil_schema_version: '${SCHEMA_VERSION}', vigil_table: ${quote(tag)}})`,
    );
  } catch (error) {
    await localDataFiles.remove(staged);
    throw error;
  }
  await files.publish(staged, file);
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
