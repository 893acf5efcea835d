/* eslint-disable no-console -- a command-line script: its output is the point */
// Assembles the eth-labels snapshot Vigil ships (`chaindata/labels/data/eth-labels.ndjson.gz`) from a
// git clone of the eth-labels project (github.com/dawsbot/eth-labels, MIT):
//
//   git clone https://github.com/dawsbot/eth-labels /tmp/eth-labels
//   npm run labels:assemble -- /tmp/eth-labels
//
// The project publishes its labels as data files whose layout changed over its history
// (`data/<explorer>/<label>/{accounts,tokens,combined}.json`, `data/<explorer>/<label>.json`,
// `src/mainnet/<label>/all.json`, `data/csv/tokens.csv`, ...), and some files were dropped when
// the layout moved on. The snapshot is the union of the newest version of every such file in the
// repository's history, so a label survives a layout change. Rows are facts (address, chain,
// label, name), not code; the project's licence is kept beside this file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { SNAPSHOT_FILE, snapshotBody, type SnapshotRow } from './snapshot.ts';

/** Explorer folder names the project has used, and the EVM chain each one labels. */
const EXPLORER_CHAIN: Record<string, number> = {
  etherscan: 1,
  Etherscan: 1,
  basescan: 8453,
  polygon: 137,
  polygonscan: 137,
  bscscan: 56,
  arbiscan: 42161,
  arbitrum: 42161,
  ftmscan: 250,
  optimism: 10,
  celo: 42220,
  gnosis: 100,
  gnosisscan: 100,
  linea: 59144,
  scroll: 534352,
};
/** Labels that name a file's grouping, not a fact about the address. */
const NOT_LABELS = new Set(['combined-labels', 'all-json', 'combined']);

const Entry = z.union([
  z.string(),
  z.object({
    address: z.string(),
    nameTag: z.string().nullish(),
    tokenName: z.string().nullish(),
  }),
]);
/** A row of the published tables (`data/csv/accounts.csv`, `data/csv/tokens.csv`). */
const CsvRow = z.object({
  address: z.string(),
  chainId: z.coerce.number().int().positive(),
  label: z.string(),
  name: z.string().optional(),
  nameTag: z.string().optional(),
});

type Kind = SnapshotRow[4];
interface Located {
  chainId: number;
  label: string;
  kind: Kind;
}

/** Where a data file's rows belong, from its path; undefined for files that are not label data. */
function locate(file: string): Located | { csv: Kind } | 'labels-map' | undefined {
  const parts = file.split('/');
  if (file === 'data/csv/tokens.csv') return { csv: 'token' };
  if (file === 'data/csv/accounts.csv') return { csv: 'account' };
  if (file === 'src/mainnet/all-json/all.json') return 'labels-map';
  const [root, explorer, label, leaf] = parts;
  const chainId = explorer === undefined ? undefined : EXPLORER_CHAIN[explorer];
  if (root === 'data' && chainId !== undefined && label !== undefined) {
    if (parts.length === 4 && leaf !== undefined && /^(accounts|tokens|combined)\.json$/.test(leaf))
      return { chainId, label, kind: leaf === 'tokens.json' ? 'token' : 'account' };
    if (parts.length === 3 && label.endsWith('.json'))
      return { chainId, label: label.slice(0, -'.json'.length), kind: 'account' };
  }
  if (root === 'src' && explorer === 'mainnet' && label !== undefined) {
    if (parts.length === 4 && leaf === 'all.json') return { chainId: 1, label, kind: 'account' };
    if (parts.length === 3 && label.endsWith('.json'))
      return { chainId: 1, label: label.slice(0, -'.json'.length), kind: 'account' };
  }
  return undefined;
}

function git(repo: string, args: string[], input?: string): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...(input === undefined ? {} : { input }),
  });
}

/** The newest blob of every path in the history (rev-list walks newest commits first). */
function newestBlobs(repo: string): Map<string, string> {
  const objects = git(repo, ['rev-list', '--all', '--objects', '--missing=print'])
    .split('\n')
    .filter((line) => line.includes(' ') && !line.startsWith('?'));
  const typed = git(
    repo,
    ['cat-file', '--batch-check=%(objecttype) %(objectname)'],
    objects.map((line) => line.slice(0, line.indexOf(' '))).join('\n'),
  );
  const blobs = new Set(
    typed
      .split('\n')
      .filter((line) => line.startsWith('blob '))
      .map((line) => line.slice(5)),
  );
  const newest = new Map<string, string>();
  for (const line of objects) {
    const [sha, file] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
    if (blobs.has(sha) && !newest.has(file)) newest.set(file, sha);
  }
  return newest;
}

function assemble(repo: string): SnapshotRow[] {
  const rows = new Map<string, SnapshotRow>();
  const add = (
    address: string,
    chainId: number,
    label: string,
    name: string | null | undefined,
    kind: Kind,
  ) => {
    const normalized = address.trim().toLowerCase();
    if (!/^0x[0-9a-f]{40}$/.test(normalized) || NOT_LABELS.has(label)) return;
    const key = `${normalized}|${chainId}|${label}`;
    const named = name?.trim() ? name.trim() : null;
    const existing = rows.get(key);
    // The first name seen wins, except that a name beats none.
    if (!existing || (existing[3] === null && named !== null))
      rows.set(key, [normalized, chainId, label, named, kind]);
  };
  let files = 0;
  for (const [file, sha] of newestBlobs(repo)) {
    const where = locate(file);
    if (where === undefined) continue;
    let text: string;
    try {
      text = git(repo, ['cat-file', 'blob', sha]);
    } catch {
      continue; // a blob a partial clone does not hold
    }
    files += 1;
    if (typeof where === 'object' && 'csv' in where) {
      const table = z
        .array(CsvRow)
        .parse(parse(text, { columns: true, skip_empty_lines: true, relax_quotes: true }));
      for (const row of table) add(row.address, row.chainId, row.label, row.nameTag ?? row.name, where.csv);
    } else if (where === 'labels-map') {
      const map = z
        .record(z.string(), z.object({ labels: z.array(z.string()), name: z.string().nullish() }))
        .parse(JSON.parse(text));
      for (const [address, { labels, name }] of Object.entries(map))
        for (const label of labels) add(address, 1, label, name, 'account');
    } else {
      const parsed = z.array(Entry).safeParse(JSON.parse(text));
      if (!parsed.success) continue; // an old file of another shape (counts, indexes)
      for (const entry of parsed.data) {
        if (typeof entry === 'string') add(entry, where.chainId, where.label, null, where.kind);
        else add(entry.address, where.chainId, where.label, entry.nameTag ?? entry.tokenName, where.kind);
      }
    }
  }
  console.log(`read ${files} data files`);
  return [...rows.values()].sort((a, b) => (a[0] + a[1] + a[2] < b[0] + b[1] + b[2] ? -1 : 1));
}

const repo = process.argv[2];
if (!repo) {
  console.error('usage: npm run labels:assemble -- <path to a git clone of eth-labels>');
  process.exit(2);
}
const head = git(repo, ['rev-parse', 'HEAD']).trim();
const rows = assemble(repo);
mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
writeFileSync(SNAPSHOT_FILE, gzipSync(snapshotBody('eth-labels', head, rows), { level: 9 }));
const addresses = new Set(rows.map((row) => `${row[0]}|${row[1]}`)).size;
console.log(`${rows.length} labels of ${addresses} addresses from eth-labels@${head.slice(0, 12)}`);
