// Added latency of a paid call (x402 verify + settlement on the devnet) over the same call on a
// free trial, through the real stack: backend, facilitator and workers as separate processes.
//   npm run bench:x402 -- [--n 100] [--concurrency 1]
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { SOLANA_DEVNET_CAIP2 } from '../api/facilitator/svmFacilitator.ts';
import { startSolanaDevnet } from '../infra/devnet/solana/devnet.ts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { deployPaymentToken, fundedDevAccount, mintPaymentToken } from '../infra/devnet/paymentToken.ts';
import { deployScenario, scenarioGenesisTimestamp } from '../infra/devnet/scenario.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../infra/stack/processes.ts';
import { startMongo, startRedis, startTemporal } from '../infra/stack/services.ts';
import { payerClient, paymentRequiredFor, requirementsFor } from '../test/support/payments.ts';
import { markdownTable, type PhaseStats, runPhase } from './stats.ts';
import { StepSamples, stepTable, workflowTimelines } from './x402Breakdown.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '1' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
    // The facilitator's receipt polling after broadcast (npm start uses 5 ms on the devnet).
    'receipt-poll-ms': { type: 'string', default: '5' },
  },
});
const n = Number(values.n);
const concurrency = Number(values.concurrency);
const WARMUP = 10;
const TOOL = 'honeypot_check';
const PRICE = 10_000n; // $0.01 in 6-decimal USDC

const loadBefore = Math.round((os.loadavg()[0] ?? 0) * 10) / 10;
const dir = await mkdtemp(path.join(os.tmpdir(), 'vigil-bench-x402-'));
const stops: (() => Promise<void>)[] = [];
try {
  const [temporal, redis, mongo, anvil, solana] = await Promise.all([
    freePort().then((port) => startTemporal({ port })),
    freePort().then((port) => startRedis({ port })),
    freePort().then((port) => startMongo({ port, dir: path.join(dir, 'mongo') })),
    startAnvil({ genesisTimestamp: scenarioGenesisTimestamp() }),
    // LiteSVM in this process behind its JSON-RPC front, posing as Solana devnet.
    startSolanaDevnet(),
  ]);
  stops.push(
    () => temporal.process.stop(),
    () => redis.process.stop(),
    () => mongo.process.stop(),
    () => anvil.stop(),
    () => solana.close(),
  );
  const svmPayments = solana.payments;
  const scenario = await deployScenario(anvil.url);
  const token = await deployPaymentToken(anvil.url);
  const signer = await fundedDevAccount(anvil.url, '1000');
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const direct = Math.min(n, 50);
  const payers = Array.from({ length: n * 2 + WARMUP + direct }, () => generatePrivateKey());
  await mintPaymentToken(
    anvil.url,
    token,
    payers.map((key) => ({ to: privateKeyToAccount(key).address, amount: PRICE })),
  );

  const [apiPort, facilitatorPort] = [await freePort(), await freePort()];
  const facilitatorUrl = `http://127.0.0.1:${facilitatorPort}`;
  const callerToken = randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    REDIS_URL: redis.address,
    MONGODB_URI: mongo.address,
    RPC_URLS_DEVNET: anvil.url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMITS: '0',
    // One load generator is one network: its many client ids must not hit the network's trials.
    RATE_LIMIT_CLIENTS_PER_NETWORK: '1000000',
    FACILITATOR_URL: facilitatorUrl,
    FACILITATOR_AUTH_TOKEN: callerToken,
    X402_ASSET: token.address,
    X402_PAY_TO: payTo,
    X402_SVM_ASSET: svmPayments.mint,
    X402_SVM_PAY_TO: svmPayments.payTo.address,
  };
  const children: ManagedProcess[] = await Promise.all([
    spawnService({
      name: 'facilitator',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'facilitator', 'server.ts')],
      env: {
        ...env,
        PORT: String(facilitatorPort),
        FACILITATOR_PRIVATE_KEY: signer.privateKey,
        FACILITATOR_ASSETS: token.address,
        FACILITATOR_PAY_TO: payTo,
        FACILITATOR_CALLERS: `bench:${callerToken}`,
        FACILITATOR_RECEIPT_POLL_MS: values['receipt-poll-ms'],
        FACILITATOR_SVM_RPC_URL: solana.url,
        FACILITATOR_SVM_PRIVATE_KEY: svmPayments.feePayer.secretKey,
        FACILITATOR_SVM_ASSETS: svmPayments.mint,
        FACILITATOR_SVM_PAY_TO: svmPayments.payTo.address,
      },
      ready: async () => (await fetch(`${facilitatorUrl}/healthz`)).ok,
    }),
    spawnService({
      name: 'backend',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'api', 'backend', 'server.ts')],
      env: { ...env, PORT: String(apiPort) },
      ready: async () => (await fetch(`http://127.0.0.1:${apiPort}/ready`)).ok,
    }),
    spawnService({
      name: 'workers',
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'workers', 'main.ts'), 'scanner', 'payments'],
      env,
      readyTimeoutMs: 120_000,
      ready: (output) => Promise.resolve(output.includes('vigil worker: polling')),
    }),
  ]);
  for (const child of children) stops.push(() => child.stop());

  const url = `http://127.0.0.1:${apiPort}/api/v1/x402-tools/${TOOL}`;
  const body = JSON.stringify({ chain: 'devnet', address: scenario.tokens.clean.address });
  const gatewaySteps = new StepSamples();
  const paymentIds: string[] = [];
  let recording = false;
  const call = async (headers: Record<string, string>, paid: boolean) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const answer = (await response.json()) as {
      data: unknown;
      payment: { status: string; payment_id: string } | null;
    };
    if (response.status !== 200 || answer.data === null) throw new Error(`HTTP ${response.status}`);
    if (paid && answer.payment?.status !== 'settled')
      throw new Error(`payment ${answer.payment?.status ?? 'missing'}`);
    if (paid && recording) {
      gatewaySteps.addHeader(response.headers.get('server-timing'));
      if (answer.payment) paymentIds.push(answer.payment.payment_id);
    }
  };
  // Proofs are signed before timing: the client's signing is not the server's latency.
  const requirements = requirementsFor(token, payTo, PRICE);
  const proofs = await Promise.all(
    payers.map(async (key) =>
      encodePaymentSignatureHeader(
        await payerClient(key, token).createPaymentPayload(paymentRequiredFor(requirements)),
      ),
    ),
  );
  // Solana proofs from the devnet's funded payers, signed by the official client, also ahead of time.
  const svmRequirements: PaymentRequirements = {
    scheme: 'exact',
    network: SOLANA_DEVNET_CAIP2,
    amount: PRICE.toString(),
    asset: svmPayments.mint,
    payTo: svmPayments.payTo.address,
    maxTimeoutSeconds: 300,
    extra: { feePayer: svmPayments.feePayer.address },
  };
  const svmClients = await Promise.all(
    svmPayments.payers.map(async (entry) => {
      const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(entry.secretKey));
      return x402Client.fromConfig({
        schemes: [
          { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(signer, { rpcUrl: solana.url }) },
        ],
        spendControls: {
          allowedAssets: [
            { network: SOLANA_DEVNET_CAIP2, asset: svmPayments.mint, maxAmountPerPayment: PRICE.toString() },
          ],
        },
      });
    }),
  );
  const svmProofs: string[] = [];
  for (let index = 0; index < n + WARMUP; index++) {
    const client = svmClients[index % svmClients.length];
    if (!client) throw new Error('no Solana payer');
    const payload = await client.createPaymentPayload(paymentRequiredFor(svmRequirements));
    svmProofs.push(encodePaymentSignatureHeader(payload));
  }
  const trialCall = (index: number) => call({ 'x-client-id': `bench-client-${index}` }, false);
  const paidCall = (proof: string) => call({ 'x-payment': proof }, true);

  // Warm up both paths (and the scan cache both answer from).
  await runPhase(
    'warmup trial',
    Array.from({ length: WARMUP }, (_, index) => index + 1_000_000),
    1,
    trialCall,
  );
  await runPhase('warmup paid', proofs.slice(0, WARMUP), 1, paidCall);
  const indices = Array.from({ length: n }, (_, index) => index);
  recording = true;
  const rows: PhaseStats[] = [
    await runPhase(`${TOOL} on trial`, indices, concurrency, trialCall),
    await runPhase(`${TOOL} paid (verify + settle)`, proofs.slice(WARMUP, WARMUP + n), concurrency, paidCall),
    await runPhase(
      `${TOOL} on trial (again)`,
      indices.map((index) => index + n),
      concurrency,
      trialCall,
    ),
    await runPhase(`${TOOL} paid (again)`, proofs.slice(WARMUP + n, WARMUP + 2 * n), concurrency, paidCall),
  ];
  recording = false;
  await runPhase('warmup paid on Solana', svmProofs.slice(0, WARMUP), 1, paidCall);
  rows.push(
    await runPhase(
      `${TOOL} paid on Solana (verify + settle)`,
      svmProofs.slice(WARMUP),
      concurrency,
      paidCall,
    ),
  );

  // The facilitator alone, called directly: where its share of verify and settle goes.
  const facilitatorSteps = { verify: new StepSamples(), settle: new StepSamples() };
  const askFacilitator = async (step: 'verify' | 'settle', proof: string) => {
    const started = performance.now();
    const response = await fetch(`${facilitatorUrl}/${step}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${callerToken}` },
      body: JSON.stringify({
        x402Version: 2,
        paymentPayload: JSON.parse(Buffer.from(proof, 'base64').toString('utf8')),
        paymentRequirements: requirements,
      }),
    });
    const answer = (await response.json()) as { isValid?: boolean; success?: boolean };
    if (!(answer.isValid ?? answer.success)) throw new Error(`${step}: ${JSON.stringify(answer)}`);
    facilitatorSteps[step].add(`${step} (HTTP round trip)`, performance.now() - started);
    facilitatorSteps[step].addHeader(response.headers.get('server-timing'));
  };
  for (const proof of proofs.slice(WARMUP + 2 * n)) {
    await askFacilitator('verify', proof);
    await askFacilitator('settle', proof);
  }
  const timelines = await workflowTimelines(
    temporal.address,
    paymentIds.map((id) => `settle:${id}`),
  );
  const breakdown = {
    gateway: gatewaySteps.summary(),
    facilitator_verify: facilitatorSteps.verify.summary(),
    facilitator_settle: facilitatorSteps.settle.summary(),
    settlement_workflow: timelines,
  };

  const trialP50 = Math.min(rows[0]?.p50_ms ?? 0, rows[2]?.p50_ms ?? 0);
  const trialP95 = Math.min(rows[0]?.p95_ms ?? 0, rows[2]?.p95_ms ?? 0);
  const paidP50 = Math.min(rows[1]?.p50_ms ?? 0, rows[3]?.p50_ms ?? 0);
  const paidP95 = Math.min(rows[1]?.p95_ms ?? 0, rows[3]?.p95_ms ?? 0);
  const added = {
    p50_ms: Math.round((paidP50 - trialP50) * 10) / 10,
    p95_ms: Math.round((paidP95 - trialP95) * 10) / 10,
  };
  const addedSolana = {
    p50_ms: Math.round(((rows[4]?.p50_ms ?? 0) - trialP50) * 10) / 10,
    p95_ms: Math.round(((rows[4]?.p95_ms ?? 0) - trialP95) * 10) / 10,
  };
  const report = {
    benchmark: 'x402-paid-call-overhead',
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      // Other work on the host skews every figure: the 1-minute load average before and after.
      load_average: [loadBefore, Math.round((os.loadavg()[0] ?? 0) * 10) / 10],
    },
    parameters: {
      n,
      concurrency,
      warmup: WARMUP,
      tool: TOOL,
      receipt_poll_ms: Number(values['receipt-poll-ms']),
    },
    phases: rows,
    added_latency_of_payment: added,
    added_latency_of_solana_payment: addedSolana,
    target_p50_ms: 50,
    breakdown,
  };
  const table = [
    markdownTable(rows),
    `Added by payment (best run of each path): p50 ${added.p50_ms} ms, p95 ${added.p95_ms} ms (target p50 ≤ 50 ms).`,
    `Added by a Solana payment (LiteSVM devnet): p50 ${addedSolana.p50_ms} ms, p95 ${addedSolana.p95_ms} ms.`,
    '### Paid call, per step (backend Server-Timing)',
    stepTable('step', breakdown.gateway),
    '### Facilitator alone (its Server-Timing; rpc = JSON-RPC requests)',
    stepTable('verify step', breakdown.facilitator_verify),
    stepTable('settle step', breakdown.facilitator_settle),
    '### Settlement workflow (Temporal history, server clock)',
    stepTable('span', breakdown.settlement_workflow),
  ].join('\n\n');
  console.log(table);
  await writeFile(path.join(values.out, 'x402-latency.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(
    path.join(values.out, 'x402-latency.md'),
    `# x402 paid-call overhead (${report.date.slice(0, 10)}, ${report.machine.cpus} cores, Node ${process.version}, load average ${report.machine.load_average.join(' → ')})\n\n${table}\n`,
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
