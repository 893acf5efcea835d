import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from './chunkStore.ts';
import { LanceChunkStore } from './lanceChunkStore.ts';

const DIMS = 4;

function row(
  docId: string,
  version: string,
  index: number,
  text: string,
  extra: Partial<ChunkRow> = {},
): ChunkRow {
  const vector = new Float32Array(DIMS);
  vector[index % DIMS] = 1;
  return {
    id: `${docId}:${version}:${index}`,
    doc_id: docId,
    version,
    received_at: 1,
    chunk_index: index,
    text,
    headings: '',
    path: `${docId}.md`,
    start_line: index * 10 + 1,
    end_line: index * 10 + 9,
    ecosystem: 'vigil',
    category: 'docs',
    vector,
    ...extra,
  };
}

describe('LanceChunkStore', () => {
  let dir: string;
  let store: LanceChunkStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-lance-'));
    store = await LanceChunkStore.open(dir);
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps staged chunks out of search until the commit, then swaps the whole version at once', async () => {
    await store.stage('job-1', [
      row('a', 'v1', 0, 'liquidity locks explained'),
      row('a', 'v1', 1, 'mint authority'),
    ]);
    expect(await store.stagedCount('job-1')).toBe(2);
    expect(await store.lexical('liquidity', 10, {})).toEqual([]);
    expect(await store.commit('job-1', 'a', 1)).toBe('committed');
    expect(await store.stagedCount('job-1')).toBe(0);
    expect((await store.currentVersion('a'))?.version).toBe('v1');

    await store.stage('job-2', [row('a', 'v2', 0, 'honeypot simulation', { received_at: 2 })]);
    // Staged but not committed: the old version is what search sees.
    expect((await store.lexical('liquidity', 10, {})).map((hit) => hit.row.version)).toEqual(['v1']);
    expect(await store.lexical('honeypot', 10, {})).toEqual([]);
    expect(await store.commit('job-2', 'a', 2)).toBe('committed');
    expect(await store.lexical('liquidity', 10, {})).toEqual([]);
    expect((await store.lexical('honeypot', 10, {})).map((hit) => hit.row.id)).toEqual(['a:v2:0']);
    expect(await store.currentVersion('a')).toEqual({ version: 'v2', received_at: 2, chunks: 1 });
  });

  it('drops a version received before the one indexed', async () => {
    await store.stage('job-old', [row('a', 'v0', 0, 'stale text', { received_at: 0 })]);
    expect(await store.commit('job-old', 'a', 0)).toBe('superseded');
    expect((await store.currentVersion('a'))?.version).toBe('v2');
    expect(await store.stagedCount('job-old')).toBe(0);
  });

  it('restages a retried batch without duplicating it, and leaves other documents alone', async () => {
    const rows = [row('b', 'v1', 0, 'blacklist functions'), row('b', 'v1', 1, 'pause trading')];
    await store.stage('job-3', rows);
    await store.stage('job-3', rows);
    expect(await store.stagedCount('job-3')).toBe(2);
    await store.commit('job-3', 'b', 1);
    expect((await store.currentVersion('b'))?.chunks).toBe(2);
    expect((await store.currentVersion('a'))?.version).toBe('v2');
  });

  it('filters by ecosystem and category, and a quote in a filter value cannot widen the query', async () => {
    await store.stage('job-4', [
      row('c', 'v1', 0, 'solana freeze authority', { ecosystem: 'solana', category: 'risk' }),
    ]);
    await store.commit('job-4', 'c', 1);
    const vector = new Float32Array([1, 0, 0, 0]);
    expect((await store.vector(vector, 10, { ecosystem: 'solana' })).map((hit) => hit.row.doc_id)).toEqual([
      'c',
    ]);
    expect(await store.vector(vector, 10, { ecosystem: "solana' OR '1'='1" })).toEqual([]);
    expect(await store.lexical('freeze', 10, { category: 'docs' })).toEqual([]);
    expect((await store.lexical('freeze', 10, { category: 'risk' })).length).toBe(1);
    expect(await store.stats()).toEqual({ chunks: 4, dimensions: DIMS });
  });
});
