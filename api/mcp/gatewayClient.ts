import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Set on every call this host forwards (the backend's MCP_DOOR_HEADER). */
const MCP_DOOR_HEADER = 'x-vigil-door';

/** The x402 MCP transport's `_meta` keys: the payment in a call's params, the receipt in its result. */
const X402_PAYMENT_META = 'x402/payment';
const X402_RESPONSE_META = 'x402/payment-response';

/** Headers of the MCP request that say who is calling; the backend meters and bills by them. */
const CALLER_HEADERS = ['x-api-key', 'x-client-id', 'x-wallet-proof'] as const;

export interface GatewayCall {
  tool: string;
  arguments: unknown;
  /** The call's `_meta`, where an x402 payment travels. */
  meta: Record<string, unknown> | undefined;
  /** The MCP request's headers and the client address this host saw. */
  caller: { headers: Record<string, string | string[] | undefined>; address: string };
  signal: AbortSignal;
}

/**
 * Runs a tools/call through the backend's tool gateway (`POST /api/v1/x402-tools/{tool}`): trials,
 * rate limits, payment verification, settlement, refunds and receipts are the REST door's own,
 * so the two doors cannot drift apart. The MCP host adds only the protocol's mapping: the payment
 * from `_meta["x402/payment"]` becomes the `PAYMENT-SIGNATURE` header, a 402 becomes a tool
 * result with `isError` carrying the x402 `PaymentRequired`, and the receipt comes back in
 * `_meta["x402/payment-response"]`.
 */
export async function callThroughGateway(
  backendUrl: string,
  call: GatewayCall,
): Promise<CallToolResult & { httpStatus: number }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    // The backend believes this hop only when TRUST_PROXY names this host (see docs/mcp.md).
    'x-forwarded-for': call.caller.address,
    // Calls through this door draw on the MCP free tier (5 a day per tool) rather than REST's trials.
    [MCP_DOOR_HEADER]: 'mcp',
  };
  for (const name of CALLER_HEADERS) {
    const value = call.caller.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const payment = call.meta?.[X402_PAYMENT_META];
  if (payment !== undefined)
    headers['payment-signature'] = Buffer.from(JSON.stringify(payment)).toString('base64');

  // Arguments nested past what JSON.stringify can recurse through (a RangeError) are the caller's
  // error, answered as one, not the host's 500.
  let body: string;
  try {
    body = JSON.stringify(call.arguments ?? {});
  } catch {
    const problem = { code: 'bad_request', detail: 'The tool arguments are nested too deeply.' };
    return {
      httpStatus: 400,
      content: [{ type: 'text', text: JSON.stringify(problem) }],
      structuredContent: problem,
      isError: true,
    };
  }
  const response = await fetch(`${backendUrl}/api/v1/x402-tools/${encodeURIComponent(call.tool)}`, {
    method: 'POST',
    headers,
    body,
    signal: call.signal,
  });
  const text = await response.text();
  const answer = parseObject(text);
  const receipt = decodeHeader(
    response.headers.get('payment-response') ?? response.headers.get('x-payment-response'),
  );
  const meta = receipt === undefined ? undefined : { [X402_RESPONSE_META]: receipt };
  // 200: the answer; 202: a paid answer whose settlement is still confirming (the same payment
  // fetches it). Everything else is the tool's failure as the client should see it: a 402 is the
  // payment request itself, other problems name what was wrong.
  const ok = response.status === 200 || response.status === 202;
  return {
    httpStatus: response.status,
    content: [{ type: 'text', text }],
    ...(answer ? { structuredContent: answer } : {}),
    ...(ok ? {} : { isError: true }),
    ...(meta ? { _meta: meta } : {}),
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function decodeHeader(value: string | null): unknown {
  if (!value) return undefined;
  try {
    return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
}
