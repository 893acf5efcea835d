import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from './codes.ts';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((match) => [match[1] ?? '', Number(match[2])]),
);

describe('the error registry and docs/errors.md', () => {
  it('documents every code with its status', () => {
    for (const [code, entry] of Object.entries(ErrorCodes))
      expect(documented.get(code), code).toBe(entry.status);
  });

  it('documents no code that does not exist', () => {
    expect([...documented.keys()].filter((code) => !(code in ErrorCodes))).toEqual([]);
  });
});
