import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { startTestRetrieval, tempIndexDir, type TestRetrieval } from '../support/retrievalFixtures.ts';
import { expectConformance, SCHEMATHESIS } from './schemathesis.ts';

describe('conformance to its own OpenAPI document (schemathesis): retrieval', () => {
  let retrieval: TestRetrieval;
  let url = '';

  beforeAll(async () => {
    expect(existsSync(SCHEMATHESIS), 'run infra/provision.sh: it installs schemathesis').toBe(true);
    retrieval = await startTestRetrieval(isolatedEnv({ RETRIEVAL_INDEX_URI: await tempIndexDir() }));
    url = await listenOnLoopback(retrieval.app);
  }, 120_000);
  afterAll(async () => {
    await retrieval?.close();
  });

  it('retrieval answers as its document says, on every operation', async () => {
    await expectConformance(url, {});
  }, 300_000);
});
