import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { LoggerOptions } from 'pino';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFacilitatorApp } from '../../api/facilitator/app.ts';
import { type PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';
import { loadOrDeployPayments } from '../../infra/devnet/payments.ts';
import { createRedis } from '../../clients/redis.ts';
import { randomNonce, signAuthorization } from '../support/attacks.ts';
import { isolatedEnv, startTestBackend, testStack } from '../support/fixtures.ts';
import {
  fundedPayer,
  requirementsFor,
  setupPaymentToken,
  startTestFacilitator,
  type TestFacilitator,
} from '../support/payments.ts';
import { startRecordingRpc } from '../support/recordingRpc.ts';

/** Permission bits others (group, world) hold on a file: 0 when it is its owner's alone. */
const othersMode = async (file: string) => (await stat(file)).mode & 0o077;

// Keys on disk, keys in logs, and the stores' unbounded growth.
describe('secrets and bounds (attacks)', () => {
  const { rpcUrl, scenario } = testStack();
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  let dir = '';
  let token: PaymentTokenInfo;
  let fac: TestFacilitator;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigil-secrets-'));
    token = await setupPaymentToken(rpcUrl);
    fac = await startTestFacilitator(isolatedEnv(), rpcUrl, token, { payees: [payTo] });
  });
  afterAll(async () => {
    await fac?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the devnet key file readable by its owner only, and makes a world-readable one private', async () => {
    const file = path.join(dir, 'devnet', 'payments.json');
    await loadOrDeployPayments(rpcUrl, file);
    expect(await othersMode(file)).toBe(0);
    await chmod(file, 0o644);
    await loadOrDeployPayments(rpcUrl, file);
    expect(await othersMode(file)).toBe(0);
  });

  it('keeps the stack file and the local API key readable by their owner only', async () => {
    // Loaded here, so the rest of the file runs where this module does not exist.
    const { localApiKey, writeStackFile } = await import('../../infra/stack/stackFiles.ts');
    const keyFile = path.join(dir, 'local-api-key');
    await writeFile(keyFile, `${randomBytes(24).toString('hex')}\n`, { mode: 0o644 });
    await chmod(keyFile, 0o644);
    const apiKey = localApiKey(keyFile);
    const stackFile = path.join(dir, 'stack.json');
    await writeFile(stackFile, '{}', { mode: 0o644 });
    writeStackFile(stackFile, { urls: {}, scenario, solanaMints: {}, apiKey, processes: [] });
    expect(await Promise.all([othersMode(keyFile), othersMode(stackFile)])).toEqual([0, 0]);
  });

  it('never writes an RPC URL (keys live in them) into its logs or answers', async () => {
    const secret = `sk_live_${randomBytes(12).toString('hex')}`;
    const proxy = await startRecordingRpc(rpcUrl);
    const keyed = await startTestFacilitator(isolatedEnv(), `${proxy.url}/v2/${secret}`, token, {
      payees: [payTo],
      listen: false,
    });
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const redis = createRedis(isolatedEnv().REDIS_URL ?? '');
    const app = await buildFacilitatorApp(keyed.engine, {
      publicUrl: 'http://facilitator.test',
      logger: { level: 'info', stream } as LoggerOptions,
      callers: [{ name: 'backend', token: keyed.token }],
      redis,
      rateLimits: { perMinute: 1_000, publicPerMinute: 1_000 },
    });
    try {
      const payer = await fundedPayer(rpcUrl, token, 100_000n);
      const requirements = requirementsFor(token, payTo, 10_000n);
      const payload = await signAuthorization(payer.privateKey, token, requirements, {
        to: payTo,
        value: 10_000n,
        nonce: randomNonce(),
      });
      proxy.breakWith(500);
      const answers = await Promise.all(
        ['/verify', '/settle', '/healthz'].map((url) =>
          app.inject({
            method: url === '/healthz' ? 'GET' : 'POST',
            url,
            headers: keyed.auth,
            ...(url === '/healthz'
              ? {}
              : { payload: { x402Version: 2, paymentPayload: payload, paymentRequirements: requirements } }),
          }),
        ),
      );
      const said = [...answers.map((answer) => answer.body), ...lines].join('\n');
      expect(lines.length).toBeGreaterThan(0);
      expect(said).not.toContain(secret);
    } finally {
      proxy.breakWith(undefined);
      await app.close();
      await redis.quit();
      await keyed.close();
      await proxy.close();
    }
  });

  it('bounds invoice creation per caller and per address, however the caller names itself', async () => {
    const backend = await startTestBackend({
      ...isolatedEnv(),
      FACILITATOR_URL: fac.url,
      FACILITATOR_AUTH_TOKEN: fac.token,
      X402_ASSET: token.address,
      X402_PAY_TO: payTo,
      X402_INVOICES_PER_HOUR: '3',
    });
    try {
      const statuses = [];
      for (let call = 0; call < 5; call++) {
        const created = await backend.app.inject({
          method: 'POST',
          url: '/api/v1/x402/invoice',
          headers: { 'x-client-id': `rotating-client-${call}-${randomBytes(4).toString('hex')}` },
          payload: { amount_usd: 0.01, description: 'bounded' },
        });
        statuses.push(created.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
    } finally {
      await backend.close();
    }
  });
});
