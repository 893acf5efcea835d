import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { AUTHED, isolatedEnv } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { type PaymentsStack, startPaymentsStack } from '../support/payments.ts';
import { startTestRetrieval, tempIndexDir, type TestRetrieval } from '../support/retrievalFixtures.ts';
import { expectConformance, SCHEMATHESIS } from './schemathesis.ts';

// The backend and the facilitator; the retrieval service has its own file, so the two runs can
// go side by side.
describe('conformance to their own OpenAPI documents (schemathesis): backend and facilitator', () => {
  let payments: PaymentsStack;
  let retrieval: TestRetrieval;

  beforeAll(async () => {
    expect(existsSync(SCHEMATHESIS), 'run infra/provision.sh: it installs schemathesis').toBe(true);
    // A paying deployment (devnet USDC, a facilitator, scanner, payments and reports workers)
    // whose backend asks a retrieval service: every service as the others meet it. (Without a
    // reports worker a report never ends, and its event stream, kept alive every 15 s, never did.)
    retrieval = await startTestRetrieval(isolatedEnv({ RETRIEVAL_INDEX_URI: await tempIndexDir() }));
    const retrievalUrl = await listenOnLoopback(retrieval.app);
    payments = await startPaymentsStack({
      env: { RETRIEVAL_URL: retrievalUrl },
      moreQueues: [TaskQueue.reports],
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([payments?.close(), retrieval?.close()]);
  });

  it('backend answers as its document says, on every operation', async () => {
    await expectConformance(payments.api, AUTHED);
  }, 300_000);

  it('facilitator answers as its document says, on every operation', async () => {
    await expectConformance(payments.facilitator.url, payments.facilitator.auth);
  }, 300_000);
});
