import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { splitLargeBatches } from './splitBatches.ts';

// A JSON-RPC batch of simulations that each carry contract code in a state override is several
// megabytes: a real node (anvil, an axum server like many) refuses it whole; split, every call
// answers, in order and by id.

let anvil: AnvilInstance;
beforeAll(async () => {
  anvil = await startAnvil({});
});
afterAll(() => anvil?.stop());

const ACCOUNT = '0x00000000000000000000000000000000000f00d5';
// Runtime code that returns its own first 32 bytes of calldata: PUSH0 CALLDATALOAD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN.
const ECHO = '0x5f355f5260205ff3';

function batchBody(calls: number, paddingBytes: number): string {
  const padding = 'ab'.repeat(paddingBytes);
  return JSON.stringify(
    Array.from({ length: calls }, (_, index) => ({
      jsonrpc: '2.0',
      id: index + 1,
      method: 'eth_call',
      params: [
        { to: ACCOUNT, data: `0x${index.toString(16).padStart(64, '0')}${padding}` },
        'latest',
        { [ACCOUNT]: { code: ECHO } },
      ],
    })),
  );
}

const post = (fetchFn: typeof fetch, body: string) =>
  fetchFn(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('splitLargeBatches', () => {
  it('sends a batch the node refuses whole as several, and joins the answers', async () => {
    const body = batchBody(24, 120_000);
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024);
    // Refused: an error answer, or the connection closed while the body was still being written.
    const whole = await post(fetch, body).then(
      (response) => response.text(),
      (error: unknown) => String(error),
    );
    expect(whole).not.toMatch(/"result"/);

    const split = await post(splitLargeBatches(fetch), body);
    expect(split.status).toBe(200);
    const answers = (await split.json()) as { id: number; result: string }[];
    expect(answers).toHaveLength(24);
    for (const answer of answers) expect(BigInt(answer.result)).toBe(BigInt(answer.id - 1));
  });

  it('leaves a small batch and a single request as they are', async () => {
    const seen: number[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(typeof init?.body === 'string' ? init.body.length : -1);
      return fetch(input, init);
    };
    const small = batchBody(3, 10);
    expect(((await (await post(splitLargeBatches(counting), small)).json()) as unknown[]).length).toBe(3);
    const single = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] });
    expect(await (await post(splitLargeBatches(counting), single)).json()).toMatchObject({ id: 7 });
    expect(seen).toEqual([small.length, single.length]);
  });
});
