// Runs schemathesis (every check, seeded) against a served OpenAPI document: the conformance
// gate's one way of calling it (test/conformance/*.test.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);

/** schemathesis, installed by infra/provision.sh from PyPI into the project's tools folder. */
export const SCHEMATHESIS = path.resolve(import.meta.dirname, '../../.tools/schemathesis/bin/schemathesis');

/** What counts as a rejection or an acceptance besides schemathesis's defaults, and why: see the file. */
const CONFIG_FILE = path.resolve(import.meta.dirname, 'schemathesis.toml');

/** Strategies for the named formats of Vigil's documents (a Solana key, a Solana transaction). */
const HOOKS_FILE = path.resolve(import.meta.dirname, 'hooks.py');

/** `authorization` → `Authorization`, `x-api-key` → `X-Api-Key`. */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());
}

interface Outcome {
  failures: number;
  errors: number;
  tests: number;
  output: string;
}

/** Runs schemathesis against a served OpenAPI document; the JUnit report gives the counts. */
async function schemathesis(baseUrl: string, headers: Record<string, string>): Promise<Outcome> {
  const reports = await mkdtemp(path.join(tmpdir(), 'vigil-st-'));
  try {
    const args = [
      '--config-file',
      CONFIG_FILE,
      'run',
      `${baseUrl}/openapi.json`,
      '--checks',
      'all',
      '--max-examples',
      '8',
      // The same cases every run: CI is a regression gate, exploration is the benchmark's.
      '--seed',
      '20261125',
      '--request-timeout',
      '20',
      '--no-color',
      '--report',
      'junit',
      '--report-dir',
      reports,
      // Header names as the document's security schemes spell them (schemathesis matches them
      // exactly when it checks that a route refuses a request without them).
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${canonical(name)}: ${value}`]),
    ];
    const output = await run(SCHEMATHESIS, args, {
      cwd: reports,
      env: { ...process.env, SCHEMATHESIS_HOOKS: HOOKS_FILE },
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => stdout + stderr,
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    const report = (await readdir(reports)).find((name) => name.endsWith('.xml'));
    if (!report) throw new Error(`schemathesis wrote no report:\n${output}`);
    const xml = await readFile(path.join(reports, report), 'utf8');
    const count = (name: string) =>
      [...xml.matchAll(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`, 'g'))].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
    return { failures: count('failures'), errors: count('errors'), tests: count('tests'), output };
  } finally {
    await rm(reports, { recursive: true, force: true });
  }
}

/** Runs schemathesis against a service and expects no failure and no error. */
export async function expectConformance(baseUrl: string, headers: Record<string, string>): Promise<void> {
  const outcome = await schemathesis(baseUrl, headers);
  expect(outcome.tests, outcome.output).toBeGreaterThan(0);
  expect({ failures: outcome.failures, errors: outcome.errors }, outcome.output).toEqual({
    failures: 0,
    errors: 0,
  });
}
