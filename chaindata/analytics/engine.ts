import { mkdirSync } from 'node:fs';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { attachStorage, storageOptions } from '../storage/duckdbStorage.ts';
import { hideSecrets, isObjectRoot, type LocationLike, locationOf, secretsOf } from '../storage/location.ts';
import { quote } from '../storage/sql.ts';
import { checkParsedSql, checkSqlText, type ParsedSql, SqlRejected } from './sqlGuard.ts';
import { labelsDir, viewDefinitions } from './views.ts';

export interface AnalyticsLimits {
  /** Rows a query may return; more are cut and `truncated` says so. */
  maxRows: number;
  /** Wall time of one query; it is interrupted past it. */
  timeoutMs: number;
  /** Memory the engine may use (DuckDB syntax: '512MB'); a query past it fails. */
  memoryLimit: string;
  /** Threads one query may use. */
  threads: number;
  /** Queries run at once; more wait their turn within their own timeout. */
  concurrency: number;
  /** Largest JSON answer, in bytes. */
  maxResultBytes: number;
  /**
   * Resident memory one query's process may reach, in MiB, whatever DuckDB counts (the engine
   * runs in child processes: sandbox.ts ends one past it). Default: twice `memoryLimit` plus
   * 512 MiB, room for the process itself (about 250 MiB) and for what DuckDB's limit does not count.
   */
  processMemoryMb?: number;
}

const SIZE_UNITS: Record<string, number> = {
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
};

/** A DuckDB size setting ('512MB', '1.5GiB') in bytes. */
export function sizeInBytes(size: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?b)$/i.exec(size.trim());
  const unit = match?.[2] ? SIZE_UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new Error(`not a size: ${size}`);
  return Number(match[1]) * unit;
}

/** The resident memory a query's process may reach, in bytes (see `processMemoryMb`). */
export function processMemoryBytes(limits: AnalyticsLimits): number {
  return limits.processMemoryMb !== undefined
    ? limits.processMemoryMb * 2 ** 20
    : 2 * sizeInBytes(limits.memoryLimit) + 512 * 2 ** 20;
}

export const DEFAULT_LIMITS: AnalyticsLimits = {
  maxRows: 1_000,
  timeoutMs: 5_000,
  memoryLimit: '512MB',
  threads: 2,
  concurrency: 2,
  maxResultBytes: 2_000_000,
};

interface QueryColumn {
  name: string;
  type: string;
}

export interface QueryResult {
  columns: QueryColumn[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
  limits: { max_rows: number; timeout_ms: number };
}

/** Why a query that passed the guard did not answer. */
export class QueryFailed extends Error {
  override readonly name = 'QueryFailed';
  readonly reason: 'timeout' | 'failed' | 'too_large' | 'busy' | 'memory';
  constructor(reason: QueryFailed['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * The embedded analytics engine: DuckDB in memory with a view per table over the Parquet files.
 * Opened with extensions off, reads confined to the data root, no temp files, then external
 * access disabled and the configuration locked, so nothing a query says can widen it.
 */
export class AnalyticsEngine {
  readonly views: ReadonlySet<string>;
  readonly limits: AnalyticsLimits;
  readonly #instance: DuckDBInstance;
  /** Never shown in a message: the storage's credentials and address (httpfs echoes them). */
  readonly #secrets: readonly string[];
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  private constructor(
    instance: DuckDBInstance,
    views: ReadonlySet<string>,
    limits: AnalyticsLimits,
    secrets: readonly string[],
  ) {
    this.#instance = instance;
    this.#secrets = secrets;
    this.views = views;
    this.limits = limits;
  }

  /**
   * The location must already hold each table's schema file (IndexStore.ensureSchema) and the
   * labels. Reads are confined to the data's root (a folder, or the bucket prefix through httpfs
   * with a secret scoped to it) and the local labels folder.
   */
  static async open(where: LocationLike, limits: Partial<AnalyticsLimits> = {}): Promise<AnalyticsEngine> {
    const location = locationOf(where);
    const settings = { ...DEFAULT_LIMITS, ...limits };
    if (!isObjectRoot(location.root)) mkdirSync(location.root, { recursive: true });
    const instance = await DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false',
      allow_unsigned_extensions: 'false',
      memory_limit: settings.memoryLimit,
      threads: String(settings.threads),
      // Queries never spill to disk: past the memory limit they fail.
      temp_directory: '',
      ...storageOptions(location),
    });
    const admin = await instance.connect();
    try {
      await attachStorage(admin, location);
      const definitions = viewDefinitions(location);
      for (const [name, sql] of definitions) await admin.run(`CREATE VIEW ${name} AS ${sql}`);
      // Timestamps in the files are UTC; so is every comparison with a caller's ISO time.
      await admin.run("SET TimeZone = 'UTC'");
      const allowed = [location.root, labelsDir(location)].map((dir) =>
        quote(dir.endsWith('/') ? dir : `${dir}/`),
      );
      await admin.run(`SET allowed_directories = [${allowed.join(', ')}]`);
      await admin.run('SET enable_external_access = false');
      await admin.run('SET lock_configuration = true');
      return new AnalyticsEngine(instance, new Set(definitions.keys()), settings, secretsOf(location));
    } catch (error) {
      instance.closeSync();
      throw error;
    } finally {
      admin.closeSync();
    }
  }

  /** User SQL: guarded, then run with the row cap and the timeout. */
  async query(sql: string, options: { maxRows?: number; timeoutMs?: number } = {}): Promise<QueryResult> {
    checkSqlText(sql);
    const maxRows = Math.min(options.maxRows ?? this.limits.maxRows, this.limits.maxRows);
    const timeoutMs = Math.min(options.timeoutMs ?? this.limits.timeoutMs, this.limits.timeoutMs);
    return this.#withConnection(timeoutMs, async (connection, started) => {
      // Counted first (DuckDB's own statement splitter), then checked on DuckDB's own parse tree.
      const extracted = await connection.extractStatements(sql).catch((error: unknown) => {
        throw new SqlRejected('parse_error', `The query does not parse: ${this.#clean(error).slice(0, 300)}`);
      });
      if (extracted.count !== 1)
        throw new SqlRejected('statement_count', `Exactly one statement is allowed; got ${extracted.count}.`);
      const parsed = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS tree', [sql]);
      const tree = parsed.getRowObjectsJS()[0]?.tree;
      checkParsedSql(JSON.parse(typeof tree === 'string' ? tree : '{"error":true}') as ParsedSql, this.views);
      return this.#run(
        connection,
        started,
        timeoutMs,
        () => connection.streamAndReadUntil(sql, maxRows + 1),
        maxRows,
      );
    });
  }

  /** Vigil's own SQL (trusted text, values bound as parameters), with the same limits. */
  async internal(
    sql: string,
    values: Record<string, DuckDBValue> = {},
    maxRows = this.limits.maxRows,
  ): Promise<QueryResult> {
    const timeoutMs = this.limits.timeoutMs;
    return this.#withConnection(timeoutMs, (connection, started) =>
      this.#run(
        connection,
        started,
        timeoutMs,
        () => connection.streamAndReadUntil(sql, maxRows + 1, values),
        maxRows,
      ),
    );
  }

  close(): void {
    this.#instance.closeSync();
  }

  async #run(
    connection: DuckDBConnection,
    started: number,
    timeoutMs: number,
    read: () => ReturnType<DuckDBConnection['streamAndReadUntil']>,
    maxRows: number,
  ): Promise<QueryResult> {
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      connection.interrupt();
    }, remaining);
    try {
      const reader = await read();
      const names = reader.deduplicatedColumnNames();
      const types = reader.columnTypes().map((type) => type.toString());
      const all = reader.getRowObjectsJson();
      const rows = all
        .slice(0, maxRows)
        .map((row) => Object.fromEntries(names.map((name) => [name, row[name] ?? null])));
      const result: QueryResult = {
        columns: names.map((name, index) => ({ name, type: types[index] ?? 'UNKNOWN' })),
        rows,
        row_count: rows.length,
        truncated: all.length > maxRows,
        elapsed_ms: Math.round((performance.now() - started) * 10) / 10,
        limits: { max_rows: maxRows, timeout_ms: timeoutMs },
      };
      if (JSON.stringify(result).length > this.limits.maxResultBytes)
        throw new QueryFailed(
          'too_large',
          `The answer is larger than ${this.limits.maxResultBytes} bytes; select fewer columns or rows.`,
        );
      return result;
    } catch (error) {
      if (error instanceof QueryFailed || error instanceof SqlRejected) throw error;
      if (timedOut)
        throw new QueryFailed('timeout', `The query ran longer than ${timeoutMs} ms and was cancelled.`);
      throw new QueryFailed('failed', this.#clean(error));
    } finally {
      clearTimeout(timer);
    }
  }

  async #withConnection<T>(
    timeoutMs: number,
    work: (connection: DuckDBConnection, started: number) => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    await this.#acquire(timeoutMs);
    const connection = await this.#instance.connect();
    try {
      return await work(connection, started);
    } catch (error) {
      if (error instanceof QueryFailed || error instanceof SqlRejected) throw error;
      throw new QueryFailed('failed', this.#clean(error));
    } finally {
      connection.closeSync();
      this.#release();
    }
  }

  #clean(error: unknown): string {
    return cleanMessage(error, this.#secrets);
  }

  async #acquire(timeoutMs: number): Promise<void> {
    if (this.#running < this.limits.concurrency) {
      this.#running += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(new QueryFailed('busy', 'The analytics engine is busy; retry shortly.'));
      }, timeoutMs);
      const grant = () => {
        clearTimeout(timer);
        this.#running += 1;
        resolve();
      };
      this.#waiting.push(grant);
    });
  }

  #release(): void {
    this.#running -= 1;
    this.#waiting.shift()?.();
  }
}

/**
 * DuckDB's message without file paths or URLs (a failed read names the data folder, or the
 * service's URL with the bucket and prefix) and without the storage's credentials and address
 * (httpfs repeats the key id an S3 error names).
 */
function cleanMessage(error: unknown, secrets: readonly string[]): string {
  const message = hideSecrets(error instanceof Error ? error.message : String(error), secrets);
  return message.replace(/(?<![\w.])\/(?:[\w.-]+\/)+[\w.*-]*/g, '<path>').slice(0, 500);
}
