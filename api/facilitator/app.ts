import type { Redis } from 'ioredis';
import type { LoggerOptions } from 'pino';
import { z } from 'zod';
import { scrubText } from '../../core/errors/scrubError.ts';
import { StepTimings } from '../plugins/stepTimings.ts';
import { Problem } from '../plugins/problem.ts';
import { registerOpenApi } from '../plugins/openapi.ts';
import { bodyReadByHandler, createService, type VigilApp } from '../plugins/service.ts';
import { callerPlugin } from './callers.ts';
import {
  asSettle,
  asVerify,
  PaymentRequestBody,
  RefundRequestBody,
  structuralRefusal,
} from './x402Request.ts';
import type { FacilitatorEngines } from './engine.ts';

/** How long one health probe answers /healthz. */
const HEALTH_REUSE_MS = 1_000;

/** What the routes need; FacilitatorEngines in production, an EvmFacilitator or anything shaped like it in a test. */
export type FacilitatorEngine = Pick<
  FacilitatorEngines,
  'verify' | 'settle' | 'refund' | 'supported' | 'health'
>;

export interface FacilitatorOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
  /** Who may verify, settle and refund (FACILITATOR_CALLERS). */
  callers: readonly { name: string; token: string }[];
  /** Where requests are counted. */
  redis: Redis;
  rateLimits: { perMinute: number; publicPerMinute: number };
}

const VerifyResponse = z
  .looseObject({
    isValid: z.boolean(),
    invalidReason: z.string().optional(),
    invalidMessage: z.string().optional(),
    payer: z.string().optional(),
  })
  .meta({ id: 'VerifyResponse' });

const SettleResponse = z
  .looseObject({
    success: z.boolean(),
    transaction: z.string().describe('transaction hash; empty when nothing was sent'),
    network: z.string(),
    payer: z.string().optional(),
    errorReason: z.string().optional(),
    errorMessage: z.string().optional(),
  })
  .meta({ id: 'SettleResponse' });

/** The facilitator ({coffer_url}): verify and settle x402 exact payments on-chain. */
export async function buildFacilitatorApp(
  engine: FacilitatorEngine,
  options: FacilitatorOptions,
): Promise<VigilApp> {
  const app = await createService({
    service: 'facilitator',
    publicUrl: options.publicUrl,
    logger: options.logger,
  });
  await registerOpenApi(app, {
    title: 'Vigil x402 facilitator',
    description:
      'Verifies and settles x402 v2 `exact` payments to this deployment’s payees (EIP-3009 ' +
      'transferWithAuthorization on EVM; an SPL TransferChecked transaction on Solana, when configured), and ' +
      'sends refunds back. Only Vigil’s own services may call /verify, /settle and /refund (a caller token). ' +
      'Business refusals answer 200 with isValid/success false and a machine reason; a body that is not an x402 ' +
      'request answers 400.',
    publicUrl: options.publicUrl,
    securitySchemes: {
      callerToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'A caller token of FACILITATOR_CALLERS (the backend, the payments pool).',
      },
    },
  });
  await app.register(callerPlugin, {
    callers: options.callers,
    redis: options.redis,
    perMinute: options.rateLimits.perMinute,
    publicPerMinute: options.rateLimits.publicPerMinute,
  });
  const security = [{ callerToken: [] }];
  // One probe of the chains serves every /healthz for a moment: a public route must not turn
  // each request into RPC reads.
  let probe: { at: number; health: ReturnType<FacilitatorEngine['health']> } | undefined;
  const healthOf = () => {
    if (!probe || Date.now() - probe.at > HEALTH_REUSE_MS)
      probe = { at: Date.now(), health: engine.health() };
    return probe.health;
  };

  // A body that is not an x402 request at all is the transport's 400; the reason stays in the body
  // in the shape x402 clients read.
  const status = (reason: string | undefined) =>
    reason === 'invalid_payload' ||
    reason === 'invalid_payment_requirements' ||
    reason === 'invalid_x402_version'
      ? 400
      : 200;

  app.post(
    '/verify',
    {
      schema: {
        tags: ['x402'],
        security,
        summary: 'Check a payment without moving anything',
        body: PaymentRequestBody,
        response: { 200: VerifyResponse, 400: VerifyResponse, 401: Problem },
      },
      validatorCompiler: bodyReadByHandler,
    },
    async (request, reply) => {
      const refused = structuralRefusal(PaymentRequestBody, request.body);
      if (refused) return reply.code(400).send({ isValid: false, ...asVerify(refused) });
      const timings = new StepTimings();
      const result = scrubbed(await engine.verify(request.body, timings));
      reply.header('server-timing', timings.header());
      return reply.code(result.isValid ? 200 : status(result.invalidReason)).send(result);
    },
  );

  app.post(
    '/settle',
    {
      schema: {
        tags: ['x402'],
        security,
        summary:
          'Verify, submit transferWithAuthorization to a payee, answer the receipt (idempotent per payload)',
        body: PaymentRequestBody,
        response: { 200: SettleResponse, 400: SettleResponse, 401: Problem },
      },
      validatorCompiler: bodyReadByHandler,
    },
    async (request, reply) => {
      const refused = structuralRefusal(PaymentRequestBody, request.body);
      if (refused) return reply.code(400).send(asSettle(refused));
      const timings = new StepTimings();
      const result = scrubbed(await engine.settle(request.body, timings));
      reply.header('server-timing', timings.header());
      return reply.code(result.success ? 200 : status(result.errorReason)).send(result);
    },
  );

  app.post(
    '/refund',
    {
      schema: {
        tags: ['x402'],
        security,
        summary: 'Send a settled payment back: a payee’s authorization to the payer, once (refund nonce)',
        body: RefundRequestBody,
        response: { 200: SettleResponse, 400: SettleResponse, 401: Problem },
      },
      validatorCompiler: bodyReadByHandler,
    },
    async (request, reply) => {
      const refused = structuralRefusal(RefundRequestBody, request.body);
      if (refused) return reply.code(400).send(asSettle(refused));
      const timings = new StepTimings();
      const result = scrubbed(await engine.refund(request.body, timings));
      reply.header('server-timing', timings.header());
      return reply.code(result.success ? 200 : status(result.errorReason)).send(result);
    },
  );

  app.get(
    '/supported',
    { schema: { tags: ['x402'], summary: 'Networks, schemes, assets, signers and limits' } },
    () => engine.supported(),
  );

  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'RPC reachable on the right chain, signer funded' } },
    async (_request, reply) => {
      const health = await healthOf();
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  await app.ready();
  return app;
}

/**
 * The SDK puts its simulation's raw error in `invalidMessage`, and viem's messages quote the RPC
 * URL (keys live in them): every message leaves with its URLs redacted.
 */
function scrubbed<T extends { invalidMessage?: string; errorMessage?: string }>(result: T): T {
  return {
    ...result,
    ...(result.invalidMessage === undefined ? {} : { invalidMessage: scrubText(result.invalidMessage) }),
    ...(result.errorMessage === undefined ? {} : { errorMessage: scrubText(result.errorMessage) }),
  };
}
