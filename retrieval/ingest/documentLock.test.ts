import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../clients/redis.ts';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import type { ChunkRow } from '../store/chunkStore.ts';
import { LanceChunkStore } from '../store/lanceChunkStore.ts';
import { DocumentLocks } from './documentLock.ts';

const row = (docId: string, version: string, receivedAt: number, index: number): ChunkRow => ({
  id: `${docId}:${version}:${index}`,
  doc_id: docId,
  version,
  received_at: receivedAt,
  chunk_index: index,
  text: `${version} chunk ${index}`,
  headings: '',
  path: `${docId}.md`,
  start_line: index + 1,
  end_line: index + 1,
  ecosystem: 'general',
  category: 'guide',
  vector: new Float32Array([index + 1, 1, 0, 0]),
});

describe('commits of one document from several workers', () => {
  const env = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  const locks = new DocumentLocks(redis);
  let dir = '';
  let store: LanceChunkStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-lock-'));
    store = await LanceChunkStore.open(dir);
  });
  afterAll(async () => {
    await store.close();
    await redis.quit();
    await rm(dir, { recursive: true, force: true });
  });

  it('leave the newest version indexed, whichever commit starts first', async () => {
    for (let round = 0; round < 4; round++) {
      const docId = `doc-${round}`;
      // The newer version (received later) and the older one, each staged by its own job.
      await store.stage(
        `new-${round}`,
        [0, 1, 2].map((index) => row(docId, 'new', 2_000, index)),
      );
      await store.stage(
        `old-${round}`,
        [0, 1].map((index) => row(docId, 'old', 1_000, index)),
      );
      // The older job's commit starts right after the newer one's, as two workers would.
      const outcomes = await Promise.all([
        locks.withLock(docId, () => store.commit(`new-${round}`, docId, 2_000)),
        locks.withLock(docId, () => store.commit(`old-${round}`, docId, 1_000)),
      ]);
      expect(outcomes).toEqual(['committed', 'superseded']);
      expect(await store.currentVersion(docId)).toEqual({ version: 'new', received_at: 2_000, chunks: 3 });
    }
  });

  it('lets a lock lapse for a holder that never released it, and never releases another holder’s', async () => {
    await redis.set(DocumentLocks.key('stuck'), 'someone-else', 'PX', 200);
    const started = Date.now();
    expect(await locks.withLock('stuck', () => Promise.resolve('ran'))).toBe('ran');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await redis.set(DocumentLocks.key('busy'), 'someone-else', 'PX', 60_000);
    await expect(locks.withLock('busy', () => Promise.resolve('ran'), 100)).rejects.toThrow(
      /being committed/,
    );
    expect(await redis.get(DocumentLocks.key('busy'))).toBe('someone-else');
  });
});
