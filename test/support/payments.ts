import { randomBytes } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { Hex } from 'viem';
import { vi } from 'vitest';
import { ScanJobs } from '../../api/backend/scanJobs.ts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildFacilitatorApp } from '../../api/facilitator/app.ts';
import { FacilitatorEngines } from '../../api/facilitator/engine.ts';
import { EvmFacilitator } from '../../api/facilitator/evmFacilitator.ts';
import { SOLANA_DEVNET_CAIP2, SvmFacilitator } from '../../api/facilitator/svmFacilitator.ts';
import { SettlementStore } from '../../api/facilitator/settlementStore.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { getChain } from '../../core/chains/registry.ts';
import { createRedis } from '../../clients/redis.ts';
import { TaskQueue } from '../../core/temporal/taskQueues.ts';
import { startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import {
  deployPaymentToken,
  fundedDevAccount,
  mintPaymentToken,
  type PaymentTokenInfo,
} from '../../infra/devnet/paymentToken.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import { isolatedEnv, startTestBackend, startTestWorkers, testStack, type TestBackend } from './fixtures.ts';

const DEVNET_NETWORK = 'eip155:31337' as const;

export interface TestFacilitator {
  app: VigilApp;
  facilitator: EvmFacilitator;
  /** What the routes serve: EVM, and Solana when asked for. */
  engine: FacilitatorEngines;
  url: string;
  signer: Hex;
  /** The caller token Vigil's services present (FACILITATOR_CALLERS). */
  token: string;
  /** Its Authorization header, for requests made in a test. */
  auth: { authorization: string };
  close(): Promise<void>;
}

/** A caller token of the shape FACILITATOR_CALLERS takes. */
const newCallerToken = () => randomBytes(24).toString('hex');

/**
 * A real facilitator (HTTP on a free port) over a devnet token, with its own funded signer,
 * settling to `payees` (Solana: the devnet's payee) and answering callers with `token`.
 */
export async function startTestFacilitator(
  env: Record<string, string>,
  rpcUrl: string,
  token: PaymentTokenInfo,
  options: {
    payees: readonly string[];
    confirmationTimeoutMs?: number;
    listen?: boolean;
    signerEther?: string;
    solana?: boolean;
    rateLimitPerMinute?: number;
    publicRateLimitPerMinute?: number;
  },
): Promise<TestFacilitator> {
  const signer = await fundedDevAccount(rpcUrl, options.signerEther);
  const redis = createRedis(env.REDIS_URL ?? '', { keyPrefix: `${env.REDIS_KEY_PREFIX ?? ''}fac:` });
  const callerToken = newCallerToken();
  const facilitator = await EvmFacilitator.create({
    chain: getChain('devnet'),
    rpcUrls: [rpcUrl],
    privateKey: signer.privateKey,
    assets: [token.address],
    payees: options.payees,
    store: new SettlementStore(redis),
    confirmationTimeoutMs: options.confirmationTimeoutMs ?? 10_000,
    minAmount: 10_000n,
    maxAmount: 5_000_000n,
    maxTimeoutSeconds: 900,
    minSignerBalanceWei: 10n ** 15n,
    receiptPollMs: 5,
  });
  // Solana on the shared LiteSVM devnet, posing as Solana devnet's id (the official client takes no other).
  const { solanaRpcUrl, solanaPayments } = testStack();
  const svm = options.solana
    ? await SvmFacilitator.create({
        network: SOLANA_DEVNET_CAIP2,
        rpcUrl: solanaRpcUrl,
        secretKey: solanaPayments.feePayer.secretKey,
        assets: [solanaPayments.mint],
        payees: [solanaPayments.payTo.address],
        store: new SettlementStore(redis),
        minAmount: 10_000n,
        maxAmount: 5_000_000n,
        minFeePayerLamports: 10_000_000n,
      })
    : undefined;
  const engine = new FacilitatorEngines(facilitator, svm);
  const app = await buildFacilitatorApp(engine, {
    publicUrl: 'http://facilitator.test',
    logger: false,
    callers: [
      { name: 'backend', token: callerToken },
      { name: 'payments', token: callerToken },
    ],
    redis,
    rateLimits: {
      perMinute: options.rateLimitPerMinute ?? 1_000_000,
      publicPerMinute: options.publicRateLimitPerMinute ?? 1_000_000,
    },
  });
  const url = options.listen === false ? '' : await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    facilitator,
    engine,
    url,
    signer: signer.account.address,
    token: callerToken,
    auth: { authorization: `Bearer ${callerToken}` },
    async close() {
      await app.close();
      await redis.quit();
    },
  };
}

export async function setupPaymentToken(rpcUrl: string): Promise<PaymentTokenInfo> {
  return deployPaymentToken(rpcUrl);
}

/** A payer with a fresh key holding `amount` devnet USDC. */
export async function fundedPayer(rpcUrl: string, token: PaymentTokenInfo, amount: bigint) {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  if (amount > 0n) await mintPaymentToken(rpcUrl, token, [{ to: account.address, amount }]);
  return { privateKey, account };
}

/** The official x402 client for a payer, allowed to pay in the devnet token. */
export function payerClient(privateKey: Hex, token: PaymentTokenInfo): x402Client {
  return x402Client.fromConfig({
    schemes: [{ network: DEVNET_NETWORK, client: new ExactEvmScheme(privateKeyToAccount(privateKey)) }],
    spendControls: {
      allowedAssets: [{ network: DEVNET_NETWORK, asset: token.address, maxAmountPerPayment: '1000000' }],
    },
  });
}

export function requirementsFor(token: PaymentTokenInfo, payTo: string, amount: bigint): PaymentRequirements {
  return {
    scheme: 'exact',
    network: DEVNET_NETWORK,
    amount: amount.toString(),
    asset: token.address,
    payTo,
    maxTimeoutSeconds: 300,
    extra: { name: token.name, version: token.version },
  };
}

export function paymentRequiredFor(requirements: PaymentRequirements): PaymentRequired {
  return { x402Version: 2, resource: { url: 'http://vigil.test/paid' }, accepts: [requirements] };
}

/**
 * A chain of its own for a test that must control mining (the shared devnet mines every
 * transaction at once): a fresh anvil with the devnet USDC deployed, stopped by `stop()`.
 */
export async function startDedicatedChain() {
  const anvil = await startAnvil();
  try {
    const token = await deployPaymentToken(anvil.url);
    const client = createDevnetClient(anvil.url);
    return {
      rpcUrl: anvil.url,
      token,
      /** Off: transactions wait in the mempool until `mine()`. */
      setAutomine: (enabled: boolean) => client.setAutomine(enabled),
      mine: () => client.mine({ blocks: 1 }),
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

export interface PaymentsStack {
  token: PaymentTokenInfo;
  facilitator: TestFacilitator;
  workers: RunningWorkers;
  backend: TestBackend;
  /** The backend over HTTP, for clients that need a URL (the official fetch client). */
  api: string;
  payTo: Hex;
  close(): Promise<void>;
}

/**
 * A paying deployment for one test file: a devnet USDC (or the one given, on the chain given), a
 * real facilitator, workers for the scanner and payments pools, and the backend listening on a
 * free port. `facilitatorUrl` lets a test put something (a fault proxy) between them.
 */
export async function startPaymentsStack(
  options: {
    rpcUrl?: string;
    token?: PaymentTokenInfo;
    payeeKey?: Hex;
    confirmationTimeoutMs?: number;
    env?: Record<string, string>;
    workerEnv?: Record<string, string>;
    facilitatorUrl?: (url: string) => Promise<string>;
    /** Offer Solana too: the facilitator settles the devnet mint, the backend quotes it. */
    solana?: boolean;
    /** Worker pools besides the scanner and payments ones (reports, say). */
    moreQueues?: TaskQueue[];
  } = {},
): Promise<PaymentsStack> {
  const rpcUrl = options.rpcUrl ?? testStack().rpcUrl;
  const token = options.token ?? (await setupPaymentToken(rpcUrl));
  const payTo = privateKeyToAccount(options.payeeKey ?? generatePrivateKey()).address;
  const base = isolatedEnv();
  const facilitator = await startTestFacilitator(base, rpcUrl, token, {
    payees: [payTo],
    solana: options.solana ?? false,
    ...(options.confirmationTimeoutMs === undefined
      ? {}
      : { confirmationTimeoutMs: options.confirmationTimeoutMs }),
  });
  const env = {
    ...base,
    FACILITATOR_URL: options.facilitatorUrl ? await options.facilitatorUrl(facilitator.url) : facilitator.url,
    FACILITATOR_AUTH_TOKEN: facilitator.token,
    X402_ASSET: token.address,
    X402_PAY_TO: payTo,
    ...(options.solana
      ? {
          X402_SVM_ASSET: testStack().solanaPayments.mint,
          X402_SVM_PAY_TO: testStack().solanaPayments.payTo.address,
        }
      : {}),
    ...options.env,
  };
  const [workers, backend] = await Promise.all([
    startTestWorkers(
      { ...env, ...options.workerEnv },
      { queues: [TaskQueue.scanner, TaskQueue.payments, ...(options.moreQueues ?? [])] },
    ),
    startTestBackend(env),
  ]);
  const api = await backend.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    token,
    facilitator,
    workers,
    backend,
    api,
    payTo,
    async close() {
      await backend.close();
      await workers.shutdown();
      await facilitator.close();
    },
  };
}

/**
 * Sends one request `times` times at once and counts how often the tool behind it really ran
 * (scans submitted), for the one-proof-many-requests tests.
 */
export async function sendAtOnce(times: number, send: () => Promise<Response>) {
  const submit = vi.spyOn(ScanJobs.prototype, 'submit');
  try {
    const responses = await Promise.all(Array.from({ length: times }, send));
    return { responses, runs: submit.mock.calls.length };
  } finally {
    submit.mockRestore();
  }
}
