import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';

const root = fileURLToPath(new URL('..', import.meta.url));
export const WORKFLOWS_ENTRY = path.join(root, 'workflows', 'index.ts');

/**
 * The entry of one pool's bundle: the workflows that pool runs (workflows/pools/<queue>.ts). A
 * worker bundles only its pool's workflows, because a workflow's first activation evaluates the
 * modules of its bundle: every workflow bundled measured 27–30 ms there against 18 ms for the
 * scanner's alone (docs/benchmarks.md).
 */
export function poolWorkflowsEntry(queue: string): string {
  return path.join(root, 'workflows', 'pools', `${queue}.ts`);
}

/**
 * The workflow bundle, built once per source change: bundling takes seconds, so the code is
 * cached under the data folder, keyed by a hash of everything a workflow can import: workflows/,
 * core/ and each library's core/ (lint keeps workflows to those), and the workflow interceptor
 * modules it carries (tracing's, when on).
 */
export async function loadWorkflowBundle(
  cacheDir: string,
  interceptorModules: string[] = [],
  entry: string = WORKFLOWS_ENTRY,
): Promise<{ code: string }> {
  const hash = await sourceHash(
    ['workflows', 'core', ...(await libraryCores())],
    ['package-lock.json'],
    [...interceptorModules, `entry:${path.relative(root, entry)}`],
  );
  const file = path.join(cacheDir, `workflow-bundle-${path.basename(entry, '.ts')}-${hash}.js`);
  if (existsSync(file)) return { code: await readFile(file, 'utf8') };
  const { code } = await bundleWorkflowCode({
    workflowsPath: entry,
    workflowInterceptorModules: interceptorModules,
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  await mkdir(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.part`;
  await writeFile(partial, code);
  await rename(partial, file);
  return { code };
}

/** `<library>/core` folders at the top level (scanner/core, ...). */
async function libraryCores(): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
    .map((entry) => path.join(entry.name, 'core'))
    .filter((dir) => existsSync(path.join(root, dir)));
}

async function sourceHash(dirs: string[], files: string[], modules: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const module of modules) hash.update(`interceptors:${path.relative(root, module)}\n`);
  const all: string[] = [...files.map((file) => path.join(root, file))];
  for (const dir of dirs) {
    const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        all.push(path.join(entry.parentPath, entry.name));
      }
    }
  }
  for (const file of all.sort()) {
    hash.update(path.relative(root, file));
    hash.update(existsSync(file) ? await readFile(file) : '');
  }
  return hash.digest('hex').slice(0, 16);
}
