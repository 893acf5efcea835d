import { gunzipSync } from 'node:zlib';
import { Binary } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createMongo } from '../clients/mongo.ts';
import { createRedis } from '../clients/redis.ts';
import { isolatedEnv } from '../test/support/fixtures.ts';
import { recordedScanResult } from '../test/support/recordHistory.ts';
import { type TokenFingerprintRecord, TokenFingerprintStore } from './fingerprint/fingerprintStore.ts';
import { ScanStore } from './scanStore.ts';

// Real MongoDB (the embedded stack's FerretDB or mongod) and Redis.
describe('the permanent records of scans and fingerprints', () => {
  const env = isolatedEnv();
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: env.REDIS_KEY_PREFIX ?? '' });
  const mongo = createMongo(env.MONGODB_URI ?? '', env.MONGODB_DB ?? '');
  const scans = new ScanStore({ db: mongo.db, redis, ttlSeconds: 60 });
  afterAll(async () => {
    await Promise.allSettled([redis.quit(), mongo.close()]);
  });

  it('keeps a scan as queryable fields beside its compressed result, and gives the result back whole', async () => {
    const result = recordedScanResult();
    await scans.save('scan:devnet:0xrecord/run-1', result);
    const doc = await mongo.db.collection('scans').findOne({ tier: result.tier, address: result.address });
    expect(doc).toMatchObject({
      job_id: 'scan:devnet:0xrecord/run-1',
      chain: result.chain,
      model_version: result.model_version,
      risk_score: result.risk_score,
      gates: result.gates,
      flags: result.flags.map((flag) => flag.id),
      token: { name: result.token.name, symbol: result.token.symbol },
    });
    const packed = doc?.result_gz as Binary;
    expect(packed).toBeInstanceOf(Binary);
    const json = JSON.stringify(result);
    expect(gunzipSync(packed.value()).toString()).toBe(json);
    expect(packed.length()).toBeLessThan(json.length / 4);
    expect(doc).not.toHaveProperty('result');
    expect((await scans.byJobId('scan:devnet:0xrecord/run-1'))?.result).toEqual(result);
  });

  it('reads the records written before, with the result as a document', async () => {
    const result = { ...recordedScanResult(), address: '0x00000000000000000000000000000000000000e1' };
    await mongo.db.collection<{ _id: string; [field: string]: unknown }>('scans').insertOne({
      _id: 'scan:devnet:0xold/run-1',
      job_id: 'scan:devnet:0xold/run-1',
      chain: result.chain,
      address: result.address,
      result,
      stored_at: new Date().toISOString(),
    });
    expect((await scans.byJobId('scan:devnet:0xold/run-1'))?.result).toEqual(result);
    const current = recordedScanResult();
    await scans.save('scan:devnet:0xnew/run-1', current);
    const known = await scans.knownTokens();
    const name = { name: result.token.name, symbol: result.token.symbol };
    expect(known).toContainEqual({ chain: result.chain, address: result.address, ...name });
    expect(known).toContainEqual({ chain: current.chain, address: current.address, ...name });
  });

  it('keeps a fingerprint packed and reads it back exactly, old records as they are', async () => {
    const fingerprints = new TokenFingerprintStore(mongo.db, redis);
    const fingerprint = {
      version: 'bcfp/1' as const,
      code_hash: 'ab'.repeat(32),
      code_size: 1234,
      opcode_count: 600,
      selectors: ['0xa9059cbb'],
      // Every bit matters: the largest uint32 and doubles that single precision would round.
      minhash: Array.from({ length: 128 }, (_, i) => (i === 0 ? 0xffffffff : i * 33_554_467)),
      vector: Array.from({ length: 256 }, (_, i) => Math.sin(i + 0.1) / 7),
    };
    const verdict = { risk_score: 12, tier: 'low', flags: [], gates: [], scanned_at: 'now', job_id: 'j' };
    const since = Date.now() - 1;
    await fingerprints.record({ chain: 'devnet', address: '0xF1', block_number: '7', fingerprint, verdict });
    const raw = await mongo.db.collection('token_fingerprints').findOne({ _id: 'devnet:0xf1' as never });
    expect(raw?.fingerprint.minhash).toBeInstanceOf(Binary);
    expect(raw?.fingerprint.vector).toBeInstanceOf(Binary);
    // The record as written before: arrays.
    const old: TokenFingerprintRecord = {
      chain: 'devnet',
      address: '0xF2',
      block_number: '8',
      fingerprint,
      verdict,
      stored_at: Date.now() + 1,
    };
    await mongo.db
      .collection<{ _id: string }>('token_fingerprints')
      .insertOne({ _id: 'devnet:0xf2', ...old });
    const read = await fingerprints.since(since, 10);
    expect(read.map((record) => record.address)).toEqual(['0xF1', '0xF2']);
    expect(read[0]?.fingerprint).toEqual(fingerprint);
    expect(read[1]).toEqual(old);
  });
});
