import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The container image runs every service and pool from one definition: each folder a process's
// code reaches (its imports, followed from the entry points the image's commands name) must be
// copied into it, or that process fails in production while every test here passes.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(path.join(ROOT, 'infra/deploy/Dockerfile'), 'utf8');
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g;

/** Every source file reachable from `entry` through relative imports. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(ts|js|mjs)$/.test(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), match[1] as string);
      if (existsSync(target)) queue.push(target);
    }
  }
  return seen;
}

describe('the container image', () => {
  it('copies every folder the services and worker pools import from', () => {
    const entries = [
      ...readdirSync(path.join(ROOT, 'api'))
        .map((name) => path.join(ROOT, 'api', name, 'server.ts'))
        .filter((file) => existsSync(file)),
      path.join(ROOT, 'workers/main.ts'),
    ];
    expect(entries.length).toBeGreaterThan(4);
    const folders = new Set<string>();
    for (const entry of entries)
      for (const file of reachable(entry)) {
        const [top] = path.relative(ROOT, file).split(path.sep);
        if (top && !top.includes('.')) folders.add(top);
      }
    const copied = new Set([...dockerfile.matchAll(/^COPY\s+(\S+)\s+\.\/\1\s*$/gm)].map((match) => match[1]));
    expect([...folders].filter((folder) => !copied.has(folder)).sort()).toEqual([]);
  });
});
