/* eslint-disable no-console -- a command-line script: its output is the point */
// Assembles one of the label sets Vigil ships beside eth-labels (labelSets.ts) from a git clone of
// its repository:
//
//   git clone https://github.com/brianleect/etherscan-labels /tmp/etherscan-labels
//   npm run labels:assemble-set -- etherscan-labels /tmp/etherscan-labels
//
// It writes `chaindata/labels/data/<id>.ndjson.gz` (the files at the clone's HEAD) and prints the
// counts; the set's licence is kept beside this file as `LICENSE.<id>`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { LABEL_SETS, type SourceTree } from './labelSets.ts';
import { snapshotBody, snapshotFile } from './snapshot.ts';

const git = (repo: string, args: string[]): string =>
  execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });

const [id, repo] = process.argv.slice(2);
const set = LABEL_SETS.find((candidate) => candidate.id === id);
if (!set || !repo) {
  console.error(
    `usage: npm run labels:assemble-set -- <${LABEL_SETS.map((known) => known.id).join('|')}> <git clone>`,
  );
  process.exit(2);
}
const files = git(repo, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n').filter(Boolean);
const tree: SourceTree = {
  list: (prefix) => files.filter((file) => file.startsWith(prefix)),
  text(file) {
    try {
      return git(repo, ['show', `HEAD:${file}`]);
    } catch {
      return undefined; // a blob a partial clone does not hold
    }
  },
};
const head = git(repo, ['rev-parse', 'HEAD']).trim();
const rows = set.read(tree);
const file = snapshotFile(set.id);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, gzipSync(snapshotBody(set.id, head, rows), { level: 9 }));
const addresses = new Set(rows.map((row) => `${row[0]}|${row[1]}`)).size;
console.log(`${rows.length} labels of ${addresses} addresses from ${set.id}@${head.slice(0, 12)}`);
