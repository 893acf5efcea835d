import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from './codes.ts';
import { JOB_ONLY_REASONS, Reason } from './reasons.ts';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => [match[1] ?? '', Number(match[2])]),
);
const jobSection = doc.slice(doc.indexOf('## Why a job failed'));
const jobReasons = new Set(
  [...jobSection.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|/gm)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((name) => name[1] ?? ''),
  ),
);

describe('the error registry and docs/errors.md', () => {
  it('documents every code with its status', () => {
    for (const [code, entry] of Object.entries(ErrorCodes))
      expect(documented.get(code), code).toBe(entry.status);
  });

  it('documents no code that does not exist', () => {
    expect([...documented.keys()].filter((code) => !(code in ErrorCodes))).toEqual([]);
  });

  it('documents every reason a job fails with only, and names only registered reasons', () => {
    for (const reason of JOB_ONLY_REASONS) expect(jobReasons.has(reason), reason).toBe(true);
    const registered = new Set<string>(Object.values(Reason));
    expect([...jobReasons].filter((reason) => !registered.has(reason))).toEqual([]);
  });

  it('keeps every reason stable snake_case and unique', () => {
    const values = Object.values(Reason);
    for (const value of values) expect(value).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
    expect(new Set(values).size).toBe(values.length);
  });
});
