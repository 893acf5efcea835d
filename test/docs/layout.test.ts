import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/stack/processes.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const architecture = readme.slice(readme.indexOf('## Architecture'), readme.indexOf('## Configuration'));
/** The folders the layout table describes, in its first column. */
const described = [...architecture.matchAll(/^\| `([a-z]+)\/` \|/gm)].map((match) => match[1] ?? '');
/** Top-level folders holding tracked files (git-ignored state and provisioned tools excluded). */
const tracked = [
  ...new Set(
    execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file.includes('/') && !file.startsWith('.'))
      .map((file) => file.slice(0, file.indexOf('/'))),
  ),
];

describe('the README’s layout table', () => {
  it('describes every top-level folder, and only folders that exist', () => {
    expect(tracked.filter((folder) => !described.includes(folder))).toEqual([]);
    expect(described.filter((folder) => !existsSync(`${REPO_ROOT}/${folder}`))).toEqual([]);
  });
});
