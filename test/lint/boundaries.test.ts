import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/stack/processes.ts';

/**
 * The layer rules of `npm run lint` can fail: a small tree with one breach of each rule, laid out
 * like the repository, is cruised with the repository's own rule set.
 */
const TREE: Record<string, string> = {
  'core/pure.ts': 'export const pure = 1;\n',
  'core/reads.ts': "import { readFileSync } from 'node:fs';\nexport const reads = readFileSync;\n",
  'clients/store.ts': 'export class Store {}\n',
  'scanner/core/shape.ts': "import { pure } from '../../core/pure.ts';\nexport const shape = pure;\n",
  'scanner/engine.ts':
    "import { adapter } from '../activities/scanner/index.ts';\nexport const engine = adapter;\n",
  'scanner/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
  'scanner/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
  'scanner/helper.ts': "import { fixture } from '../test/fixture.ts';\nexport const helper = fixture;\n",
  'activities/scanner/index.ts': 'export const adapter = 1;\n',
  'workflows/scan.ts':
    "import { shape } from '../scanner/core/shape.ts';\nimport { Store } from '../clients/store.ts';\nexport const scan = [shape, Store];\n",
  'workflows/typed.ts':
    "import type { Store } from '../clients/store.ts';\nexport const typed = (store: Store) => store;\n",
  'api/service/routes.ts':
    "import { adapter } from '../../activities/scanner/index.ts';\nexport const routes = adapter;\n",
  'test/fixture.ts': 'export const fixture = 1;\n',
};

let root: string;
let result: ICruiseResult;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'vigil-boundaries-'));
  for (const [file, source] of Object.entries(TREE)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), source);
  }
  const config = (await import(pathToFileURL(path.join(REPO_ROOT, '.dependency-cruiser.mjs')).href)) as {
    default: { forbidden: NonNullable<NonNullable<ICruiseOptions['ruleSet']>['forbidden']> };
  };
  const previous = process.cwd();
  process.chdir(root);
  try {
    const output = await cruise(Object.keys(TREE), {
      validate: true,
      ruleSet: { forbidden: config.default.forbidden },
      tsPreCompilationDeps: true,
    });
    result = output.output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const breaches = (rule: string) =>
  result.summary.violations
    .filter((violation) => violation.rule.name === rule)
    .map((violation) => `${violation.from} → ${violation.to}`);

describe('the layer rules (.dependency-cruiser.mjs)', () => {
  it('catch each kind of breach', () => {
    expect(breaches('no-circular')).toContain('scanner/a.ts → scanner/b.ts');
    expect(breaches('workflows-import-sandbox-safe-code')).toEqual(['workflows/scan.ts → clients/store.ts']);
    expect(breaches('sandbox-safe-code-stays-pure')).toEqual(['core/reads.ts → fs']);
    expect(breaches('api-never-imports-activities')).toEqual([
      'api/service/routes.ts → activities/scanner/index.ts',
    ]);
    expect(breaches('libraries-below-the-processes')).toEqual([
      'scanner/engine.ts → activities/scanner/index.ts',
    ]);
    expect(breaches('production-code-not-into-tests')).toEqual(['scanner/helper.ts → test/fixture.ts']);
  });

  it('let sandbox-safe imports and type-only imports through', () => {
    const allowed = ['workflows/typed.ts', 'scanner/core/shape.ts'];
    expect(
      result.summary.violations.filter(
        (violation) => allowed.includes(violation.from) || allowed.includes(violation.to),
      ),
    ).toEqual([]);
  });
});
