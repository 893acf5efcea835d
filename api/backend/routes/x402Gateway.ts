import { z } from 'zod';
import {
  catalogStats,
  describeTool,
  isPaid,
  PRICE_TIER_RANGES_USD,
  TOOLS,
} from '../../../core/catalog/index.ts';
import { CHAINS, type ChainInfo } from '../../../core/chains/registry.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';
import { PublicReceipt, publicReceipt } from '../../../core/stores/receipts.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { BackendDeps } from '../deps.ts';
import { FACILITATORS, facilitatorStatus } from '../x402/facilitators.ts';
import { identityFromIdentifier } from '../x402/trials.ts';

/** An EVM transaction hash, or a Solana transaction signature (base58 of 64 bytes). */
const TxHash = z.string().regex(/^(?:0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/);

/** Discovery, pricing, chains, facilitator health, trials, receipts, usage and history. */
export function x402GatewayRoutes(app: VigilApp, deps: BackendDeps, publicUrl: string, mcpUrl: string): void {
  const x402 = deps.x402;

  app.get(
    '/.well-known/x402',
    {
      schema: { tags: ['x402'], summary: 'x402 discovery document (counts computed from the tool catalog)' },
    },
    async () => {
      const stats = catalogStats();
      const statuses = await Promise.all(
        FACILITATORS.map((facilitator) => facilitatorStatus(facilitator, x402.facilitatorUrl)),
      );
      return {
        x402_version: '2.0',
        service: 'Vigil',
        operator: x402.operator,
        discovery_url: `${mcpUrl}/.well-known/x402`,
        mcp_url: `${mcpUrl}/mcp/x402`,
        docs_url: `${publicUrl}/x402/docs`,
        pricing: {
          total_tools: stats.total_tools,
          paid_tools: stats.paid_tools,
          price_range_usd: stats.price_range_usd,
          free_trials: stats.free_trials,
        },
        facilitators: FACILITATORS.map((facilitator) => facilitator.name),
        facilitator_status: statuses.map(({ name, status }) => ({ name, status })),
        status: 'active',
        // The x402scan convention, so indexers find every paid resource.
        version: 1,
        resources: TOOLS.filter(isPaid).map((tool) => `${publicUrl}/api/v1/x402-tools/${tool.name}`),
      };
    },
  );

  app.get(
    '/api/v1/x402/pricing',
    { schema: { tags: ['x402'], summary: 'Price list per tool and tier' } },
    async () => {
      const asset = x402.options.configured ? await x402.options.asset().catch(() => null) : null;
      return {
        currency: 'USD',
        tiers: PRICE_TIER_RANGES_USD,
        payment: asset
          ? {
              network: x402.options.network,
              asset: asset.address,
              symbol: asset.symbol,
              decimals: asset.decimals,
            }
          : null,
        tools: TOOLS.map((tool) => ({
          name: tool.name,
          price_usd: tool.priceUsd,
          tier: tool.tier,
          trials: { per_fingerprint: tool.trials.fingerprint, per_wallet: tool.trials.wallet },
        })),
        trial_window_seconds: x402.trials.windowSeconds,
      };
    },
  );

  app.get(
    '/api/v1/x402/chains',
    { schema: { tags: ['x402'], summary: 'Payment chains and their status here' } },
    async () => {
      const supported = await x402.options.supported().catch(() => null);
      const chainOf = (caip2: string) => CHAINS.find((chain: ChainInfo) => chain.caip2 === caip2);
      const live = (supported?.kinds ?? []).map((kind) => ({
        network: kind.network,
        chain: chainOf(kind.network)?.id ?? null,
        scheme: kind.scheme,
        status: kind.network === x402.options.network && x402.options.configured ? 'live' : 'settleable',
        assets: (supported?.assets ?? []).filter((asset) => asset.network === kind.network),
        facilitator: 'vigil',
      }));
      return { count: live.length, chains: live, facilitator_reachable: supported !== null };
    },
  );

  app.get(
    '/api/v1/x402-databus/catalog',
    { schema: { tags: ['x402'], summary: 'Data bus tool catalog' } },
    () => ({
      ...catalogStats(),
      tools: TOOLS.map(describeTool),
    }),
  );

  app.get(
    '/api/v1/x402/facilitator-health/status/:name',
    {
      schema: {
        tags: ['x402'],
        summary: 'Health of one facilitator',
        params: z.object({ name: z.string().max(64) }),
        response: {
          200: z.looseObject({}).describe('the facilitator’s status, as in /api/v1/x402/facilitator-health'),
          404: Problem,
        },
      },
    },
    async (request) => {
      const facilitator = FACILITATORS.find((entry) => entry.name === request.params.name);
      if (!facilitator) {
        throw new VigilError(
          'not_found',
          `No facilitator is named "${request.params.name}"; see /.well-known/x402.`,
          {
            extensions: { facilitators: FACILITATORS.map((entry) => entry.name) },
          },
        );
      }
      return facilitatorStatus(facilitator, x402.facilitatorUrl);
    },
  );

  app.get(
    '/api/v1/x402-databus/trials/:identifier',
    {
      schema: {
        tags: ['x402'],
        summary: 'Free trial balances of a client id or a wallet',
        params: z.object({ identifier: z.string().max(128) }),
      },
    },
    async (request) => {
      const identity = identityFromIdentifier(request.params.identifier, request.caller);
      if (!identity) {
        throw new VigilError(
          'bad_request',
          'The identifier is neither a client id (8-128 of A-Z a-z 0-9 . _ : -) nor a 0x wallet.',
          {
            extensions: { field: 'identifier' },
          },
        );
      }
      return {
        identifier: identity.id,
        kind: identity.kind,
        window_seconds: x402.trials.windowSeconds,
        tools: await x402.trials.balances(identity),
        // The MCP door's own free tier (5 a day per tool), counted apart.
        mcp: {
          window_seconds: x402.mcpTrials.windowSeconds,
          tools: await x402.mcpTrials.balances(identity),
        },
      };
    },
  );

  app.get(
    '/api/v1/x402/receipts/:tx_hash',
    {
      schema: {
        tags: ['x402'],
        summary: 'Receipt of a settled transaction',
        params: z.object({ tx_hash: TxHash }),
        response: { 200: PublicReceipt, 404: Problem },
      },
    },
    async (request) => {
      const receipt = await x402.receipts.byTransaction(request.params.tx_hash);
      if (!receipt)
        throw new VigilError('receipt_not_found', `No receipt for transaction ${request.params.tx_hash}.`);
      return publicReceipt(receipt);
    },
  );

  app.get(
    '/api/v1/x402/payments/:payment_id',
    {
      schema: {
        tags: ['x402'],
        summary: 'A payment by id: pending while it settles, then its receipt',
        params: z.object({ payment_id: z.string().regex(/^pay_[0-9a-f]{32}$/) }),
        response: { 200: PublicReceipt, 404: Problem },
      },
    },
    async (request) => {
      const receipt = await x402.receipts.byPaymentId(request.params.payment_id);
      if (receipt) return publicReceipt(receipt);
      throw new VigilError('receipt_not_found', `No settled payment ${request.params.payment_id} yet.`, {
        headers: { 'retry-after': '2' },
      });
    },
  );

  const requireKey = (apiKeyId: string | null): string => {
    if (!apiKeyId)
      throw new VigilError('unauthorized', 'Send X-API-Key: usage and history belong to an API key.');
    return apiKeyId;
  };

  app.get(
    '/api/v1/x402/history',
    { schema: { tags: ['x402'], summary: 'Payment history of the calling API key' } },
    async (request) => {
      const receipts = await x402.receipts.byApiKey(requireKey(request.caller.apiKeyId), 100);
      return { api_key: request.caller.apiKeyId, count: receipts.length, payments: receipts };
    },
  );

  app.get(
    '/api/v1/x402/usage',
    { schema: { tags: ['x402'], summary: 'Usage of the calling API key' } },
    async (request) => {
      const receipts = await x402.receipts.byApiKey(requireKey(request.caller.apiKeyId), 1_000);
      const byTool = new Map<string, { calls: number; spent_usd: number }>();
      for (const receipt of receipts.filter((entry) => entry.status === 'settled')) {
        const entry = byTool.get(receipt.tool) ?? { calls: 0, spent_usd: 0 };
        entry.calls += 1;
        entry.spent_usd = Math.round((entry.spent_usd + receipt.amount_usd) * 1e6) / 1e6;
        byTool.set(receipt.tool, entry);
      }
      return {
        api_key: request.caller.apiKeyId,
        tier: request.caller.tier,
        paid_calls: [...byTool.values()].reduce((sum, entry) => sum + entry.calls, 0),
        tools: Object.fromEntries(byTool),
      };
    },
  );

  app.get(
    '/x402/docs',
    { schema: { tags: ['x402'], summary: 'How to pay for tools, with the live price list' } },
    (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage()),
  );
}

function docsPage(): string {
  const rows = TOOLS.map(
    (tool) =>
      `<tr><td><code>POST /api/v1/x402-tools/${tool.name}</code></td><td>${tool.priceUsd > 0 ? `$${tool.priceUsd}` : 'free'}</td><td>${tool.tier}</td><td>${tool.trials.fingerprint} / ${tool.trials.wallet}</td></tr>`,
  ).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Vigil x402</title></head><body>
<h1>Paying for Vigil tools with x402</h1>
<ol><li>Call a tool. With <code>X-Client-ID</code> the first calls are free (more for a wallet proven by a signed message: <code>X-Wallet-Proof</code>, see <code>/api/v1/x402/wallet-proof/nonce</code>).</li>
<li>Without a trial the answer is <b>402</b>: an x402 v2 <code>PaymentRequired</code> in the body and in <code>PAYMENT-REQUIRED</code>.</li>
<li>Sign an EIP-3009 transferWithAuthorization for exactly the quoted amount (any x402 v2 client does it) and retry with <code>X-PAYMENT</code> or <code>PAYMENT-SIGNATURE</code>.</li>
<li>The answer is <b>200</b> with the data and the receipt in <code>X-PAYMENT-RESPONSE</code> / <code>PAYMENT-RESPONSE</code>. No data, no charge.</li></ol>
<table border="1" cellpadding="4"><tr><th>tool</th><th>price</th><th>tier</th><th>trials (client / wallet)</th></tr>${rows}</table>
<p><a href="/docs">Interactive API reference</a> · <a href="/.well-known/x402">discovery document</a> · <a href="/api/v1/x402-tools/discovery">tool schemas</a></p>
</body></html>`;
}
