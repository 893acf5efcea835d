import { TABLE_NAMES, type RangeRows } from '../tables.ts';
import { type DataFiles, dataFiles } from './dataFiles.ts';
import {
  assertChainSlug,
  type BlockRange,
  chainDir,
  emptyFile,
  overlaps,
  parseRangeFileName,
  rangeFile,
  rangeFileName,
} from './layout.ts';
import { baseName, type ChaindataLocation, type LocationLike, locationOf } from './location.ts';
import { ParquetWriter } from './parquetWriter.ts';
import { quote } from './sql.ts';

/**
 * The indexed ranges of each chain, kept as Parquet files under one root (a folder, or a prefix in
 * a bucket). The files are the state: which ranges are indexed is read from their names, so a
 * worker that restarts (or another one) picks up where the last left off.
 */
export class IndexStore {
  readonly root: string;
  readonly location: ChaindataLocation;
  readonly #writer: ParquetWriter;
  readonly #files: DataFiles;
  #schemaReady: Promise<void> | undefined;

  constructor(where: LocationLike) {
    this.location = locationOf(where);
    this.root = this.location.root;
    this.#writer = new ParquetWriter(this.location);
    this.#files = dataFiles(this.location);
  }

  /** Writes the zero-row schema file of every table once, so views never miss a table. */
  ensureSchema(): Promise<void> {
    this.#schemaReady ??= (async () => {
      for (const table of TABLE_NAMES) {
        const file = emptyFile(this.root, table);
        if (!(await this.#files.exists(file))) await this.#writer.writeEmpty(table, file);
      }
    })();
    return this.#schemaReady;
  }

  /** The indexed ranges of a chain, sorted, from the blocks table (every range has its blocks). */
  async ranges(chain: string): Promise<BlockRange[]> {
    assertChainSlug(chain);
    const found = new Map<string, BlockRange>();
    for (const file of await this.#list('blocks', chain)) {
      const range = parseRangeFileName(baseName(file));
      if (range) found.set(rangeFileName(range), range);
    }
    return [...found.values()].sort((a, b) => a.from - b.from);
  }

  /** The last indexed block of a chain, or undefined when nothing is indexed. */
  async lastIndexed(chain: string): Promise<number | undefined> {
    const ranges = await this.ranges(chain);
    return ranges.length === 0 ? undefined : Math.max(...ranges.map((range) => range.to));
  }

  /** The range widened to cover every indexed range it overlaps, so a rewrite replaces them whole. */
  async coveringRange(
    chain: string,
    range: BlockRange,
  ): Promise<{ range: BlockRange; replaces: BlockRange[] }> {
    const ranges = await this.ranges(chain);
    let covering = { ...range };
    for (;;) {
      const replaces = ranges.filter((existing) => overlaps(existing, covering));
      const from = Math.min(covering.from, ...replaces.map((existing) => existing.from));
      const to = Math.max(covering.to, ...replaces.map((existing) => existing.to));
      if (from === covering.from && to === covering.to) return { range: covering, replaces };
      covering = { from, to };
    }
  }

  /**
   * Writes a range's rows (every table), then removes the files of the ranges it replaces. Written
   * first, removed second: a crash in between leaves the old rows doubled, never missing, and the
   * next write over the range heals it.
   */
  async writeRange(
    chain: string,
    range: BlockRange,
    rows: RangeRows,
    replaces: BlockRange[],
  ): Promise<number> {
    assertChainSlug(chain);
    await this.ensureSchema();
    let written = 0;
    const keep = new Set<string>();
    for (const table of TABLE_NAMES) {
      const files = await this.#writer.write(table, rows[table], (date) =>
        rangeFile(this.root, table, chain, date, range),
      );
      for (const file of files) keep.add(file);
      written += rows[table].length;
    }
    await this.#remove(chain, replaces, keep);
    return written;
  }

  /** Removes every range that ends at or after `block`; returns the first block no longer indexed. */
  async rewind(chain: string, block: number): Promise<number> {
    const doomed = (await this.ranges(chain)).filter((range) => range.to >= block);
    await this.#remove(chain, doomed, new Set());
    return Math.min(block, ...doomed.map((range) => range.from));
  }

  /** Stored hashes of the chain's blocks in [from, to]. */
  async blockHashes(chain: string, from: number, to: number): Promise<Map<number, string>> {
    assertChainSlug(chain);
    const files = (await this.#list('blocks', chain)).filter((file) => {
      const range = parseRangeFileName(baseName(file));
      return range !== undefined && overlaps(range, { from, to });
    });
    if (files.length === 0) return new Map();
    const rows = await this.#writer.read(
      `SELECT block_number, block_hash FROM read_parquet([${files.map(quote).join(', ')}]) ` +
        `WHERE block_number BETWEEN ${Number(from)} AND ${Number(to)}`,
    );
    return new Map(rows.map((row) => [Number(row.block_number), String(row.block_hash)]));
  }

  async close(): Promise<void> {
    await this.#writer.close();
  }

  async #remove(chain: string, ranges: readonly BlockRange[], keep: Set<string>): Promise<void> {
    if (ranges.length === 0) return;
    const names = new Set(ranges.map(rangeFileName));
    for (const table of TABLE_NAMES) {
      for (const file of await this.#list(table, chain)) {
        if (names.has(baseName(file)) && !keep.has(file)) await this.#files.remove(file);
      }
    }
  }

  #list(table: (typeof TABLE_NAMES)[number], chain: string): Promise<string[]> {
    return this.#files.list(chainDir(this.root, table, chain));
  }
}
