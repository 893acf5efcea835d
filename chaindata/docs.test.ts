import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LABEL_COLUMNS } from './labels/labelFile.ts';
import { TABLES } from './tables.ts';

const doc = readFileSync(new URL('../docs/data.md', import.meta.url), 'utf8');

/** The columns docs/data.md lists under a table's heading. */
function documented(table: string): string[] {
  const section = doc.split(`### \`${table}\``)[1]?.split('### ')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('docs/data.md', () => {
  it('lists every column of every table, in order', () => {
    for (const [name, table] of Object.entries(TABLES)) {
      const columns = table.columns.map((column) => column.name);
      expect(documented(name).slice(0, columns.length), name).toEqual(columns);
    }
    expect(documented('labels')).toEqual(LABEL_COLUMNS.map((column) => column.name));
  });
});
