import { z } from 'zod';
import { describeTool, TOOLS } from '../../../core/catalog/index.ts';
import { Problem } from '../../plugins/problem.ts';
import { bodyReadByHandler, type VigilApp } from '../../plugins/service.ts';
import type { Caller } from '../../plugins/caller.ts';
import type { X402Gateway } from '../x402/gateway.ts';
import { trialIdentityOf } from '../x402/trials.ts';
import type { WalletProofs } from '../x402/walletProofs.ts';

const ToolAnswer = z
  .looseObject({
    tool: z.string(),
    data: z.unknown().describe('the tool’s result; null with reason no_data when its sources had nothing'),
    reason: z.literal('no_data').optional(),
    sources_tried: z.array(z.string()).optional(),
    payment: z
      .looseObject({
        payment_id: z.string(),
        status: z.enum(['settled', 'pending']),
        transaction: z.string().nullable(),
      })
      .nullable()
      .describe('the payment when the call was paid with x402; the receipt is also in X-PAYMENT-RESPONSE'),
    trial: z.looseObject({ limit: z.number(), remaining: z.number() }).nullable(),
  })
  .meta({ id: 'ToolAnswer' });

const PendingToolAnswer = z
  .looseObject({
    tool: z.string(),
    data: z.null().describe('released once the payment has settled: send the same request and proof again'),
    payment: z.looseObject({
      payment_id: z.string(),
      status: z.literal('pending'),
      transaction: z.string().nullable(),
      status_url: z.string(),
    }),
    detail: z.string(),
  })
  .meta({ id: 'PendingToolAnswer' });

/** The problems a paid route can answer with. */
export const PAID_ROUTE_PROBLEMS = {
  400: Problem,
  401: Problem,
  402: Problem,
  404: Problem,
  409: Problem,
  422: Problem,
  429: Problem,
  503: Problem,
};

const PAY_DESCRIPTION =
  'Free trial with X-Client-ID (more for a wallet proven with X-Wallet-Proof); otherwise pay per call with x402: the 402 answer ' +
  'carries a v2 PaymentRequired (body and PAYMENT-REQUIRED header); retry with the signed proof in X-PAYMENT or ' +
  'PAYMENT-SIGNATURE; the receipt comes back in X-PAYMENT-RESPONSE and PAYMENT-RESPONSE. The data is released ' +
  'only once the payment has settled on chain: a settlement still confirming after X402_SETTLE_WAIT_MS answers ' +
  '202 without it (send the same request and proof again). Calls that find no data answer 200 with data null ' +
  'and are not charged. One signed authorization pays for one purchase.';

/** POST /api/v1/x402-tools/{tool}: one route per catalog tool, plus a catch-all that names unknown tools. */
export function x402ToolRoutes(app: VigilApp, gateway: X402Gateway, proofs: WalletProofs): void {
  for (const tool of TOOLS) {
    app.post(
      `/api/v1/x402-tools/${tool.name}`,
      {
        schema: {
          tags: ['x402 tools'],
          summary: `${tool.title} (${tool.priceUsd > 0 ? `$${tool.priceUsd} per call` : 'free'})`,
          description: `${tool.description}\n\n${tool.priceUsd > 0 ? PAY_DESCRIPTION : 'Free.'}`,
          body: tool.input,
          response: { 200: ToolAnswer, 202: PendingToolAnswer, ...PAID_ROUTE_PROBLEMS },
        },
        // The gateway validates against the same schema, naming the field; Fastify's own check is
        // kept off so both paths (known and catch-all) answer identically.
        validatorCompiler: bodyReadByHandler,
        // A tool that needs no input takes a call without a body (the gateway reads it as {}).
        config: { bodyOptional: tool.input.safeParse({}).success },
      },
      async (request, reply) => {
        sendAnswer(reply, await gateway.call(toCall(tool.name, request, proofs)));
        return reply;
      },
    );
  }

  app.post(
    '/api/v1/x402-tools/:tool_name',
    {
      schema: {
        tags: ['x402 tools'],
        summary: 'Run a tool by name (unknown names answer 404 unknown_tool)',
        params: z.object({ tool_name: z.string().max(128) }),
        response: { 200: ToolAnswer, 202: PendingToolAnswer, ...PAID_ROUTE_PROBLEMS },
      },
    },
    async (request, reply) => {
      sendAnswer(reply, await gateway.call(toCall(request.params.tool_name, request, proofs)));
      return reply;
    },
  );

  app.get(
    '/api/v1/x402-tools/discovery',
    { schema: { tags: ['x402 tools'], summary: 'Tool catalog: inputs, prices, trials, chains' } },
    () => ({ x402Version: 2, count: TOOLS.length, tools: TOOLS.map(describeTool) }),
  );
}

/** The header the MCP host sets on the tool calls it forwards (`mcp`). */
const MCP_DOOR_HEADER = 'x-vigil-door';

/** Whether a request carried a body at all (a content type, a length above 0, or chunks). */
function bodySent(headers: Record<string, string | string[] | undefined>): boolean {
  return (
    headers['content-type'] !== undefined ||
    headers['transfer-encoding'] !== undefined ||
    Number(headers['content-length'] ?? 0) > 0
  );
}

export function toCall(
  toolName: string,
  request: {
    body: unknown;
    headers: Record<string, string | string[] | undefined>;
    id: string;
    caller: Caller;
  },
  proofs: WalletProofs,
) {
  // The MCP host says so on the calls it forwards; a REST caller that says so too gets the MCP
  // door's free tier instead of the catalog's trials, which it could have through that door anyway.
  const door = request.headers[MCP_DOOR_HEADER] === 'mcp' ? 'mcp' : 'rest';
  return {
    toolName,
    // Fastify reads a request without a body as null: that is no input (the gateway reads it as
    // {}), while a JSON null that was sent stays null and fails as not an object.
    body: bodySent(request.headers) ? request.body : undefined,
    headers: request.headers,
    requestId: request.id,
    apiKeyId: request.caller.apiKeyId,
    buyer: request.caller.apiKeyId ? request.caller.id : request.caller.network,
    holder: request.caller.id,
    door,
    trialIdentity: () =>
      trialIdentityOf(request.caller, request.headers, proofs, { withoutClientId: door === 'mcp' }),
  } as const;
}

/** Sends a gateway answer (status, body, headers) on a reply. */
export function sendAnswer(
  reply: {
    code(status: number): unknown;
    header(name: string, value: string): unknown;
    send(body: unknown): unknown;
  },
  result: { status: number; body: unknown; headers: Record<string, string> },
): void {
  for (const [name, value] of Object.entries(result.headers)) reply.header(name, value);
  reply.code(result.status);
  reply.send(result.body);
}
