import { fileURLToPath } from 'node:url';
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  parseAbi,
  parseEther,
  type PublicClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevSender } from '../../infra/devnet/client.ts';
import { type ListingDevnet, listWithPair, startListingDevnet } from '../../test/support/listedTokens.ts';
import { simulateHolderSell } from './simulateHolderSell.ts';
import { simulateRoundTrip } from './simulateRoundTrip.ts';

// A token only wallets without code may send (a guard against bots): the round trip's trader and
// a real holder's sell must meet it as a person does. The detector's code at the seller's address
// (what the round trip did until vigil-risk/28, and what a holder's sell still does on a node
// without eth_simulateV1) reads it as a honeypot: shown below with eth_simulateV1 taken away.

const routerAbi = parseAbi([
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
]);
let devnet: ListingDevnet;
let client: PublicClient;
let dex: { factory: Address; router: Address; weth: Address };
let buyer: Address;
const tokens: Record<'silent' | 'strict', { token: Address; pair: Address }> = {
  silent: { token: '0x', pair: '0x' },
  strict: { token: '0x', pair: '0x' },
};

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  client = devnet.client;
  dex = devnet.dex;
  const [, trader] = await devnet.client.request({ method: 'eth_accounts' });
  if (!trader) throw new Error('the node has fewer than two accounts');
  buyer = trader;
  const buys = new DevSender(devnet.client, trader);
  const supply = 10n ** 27n;
  for (const kind of ['silent', 'strict'] as const) {
    const { address: token, pair } = await listWithPair(devnet, 'WalletsOnlyToken', {
      args: [supply, kind === 'strict'],
      tokens: supply / 2n,
      eth: parseEther('10'),
    });
    // A person buys: the holder whose sell is simulated.
    await buys.send({
      label: 'buy',
      to: dex.router,
      value: parseEther('0.1'),
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactETHForTokensSupportingFeeOnTransferTokens',
        args: [0n, [dex.weth, token], trader, maxUint256],
      }),
    });
    await buys.settle();
    tokens[kind] = { token, pair };
  }
});
afterAll(() => devnet.node.stop());

/** The same node with eth_simulateV1 refused, as a node without it answers. */
function withoutSimulate(): PublicClient {
  return createPublicClient({
    transport: custom({
      request: ({ method, params }: { method: string; params: unknown }) => {
        if (method === 'eth_simulateV1')
          return Promise.reject(new Error('the method eth_simulateV1 does not exist/is not available'));
        return client.request({ method, params } as Parameters<PublicClient['request']>[0]);
      },
    }),
  });
}

async function holderSell(kind: 'silent' | 'strict', on: PublicClient) {
  const { token, pair } = tokens[kind];
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
  const held = await client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [buyer],
    blockNumber,
  });
  expect(held).toBeGreaterThan(0n);
  return simulateHolderSell(on, {
    router: dex.router,
    weth: dex.weth,
    pair,
    token,
    holder: buyer,
    held,
    blockNumber,
  });
}

describe.each(['silent', 'strict'] as const)('a token only wallets may send (%s)', (kind) => {
  it('the round trip trades it as a person does: buy, send and sell all work, untaxed', async () => {
    const result = await simulateRoundTrip(client, { router: dex.router, token: tokens[kind].token });
    for (const leg of [result.buy, result.transfer, result.sell, result.buyAgain, result.sellAgain]) {
      expect(leg).toMatchObject({ attempted: true, ok: true, taxBps: 0 });
    }
    expect(result.sell.received).toBeGreaterThan(0n);
  });

  it("a real holder's sell, as the holder's own transactions, works and pays the holder's coin", async () => {
    const sell = await holderSell(kind, client);
    expect(sell).toMatchObject({ seller: 'wallet', ok: true, revertReason: null });
    expect(sell.received).toBeGreaterThan(0n);
    // What the router quoted for the whole balance, less the pool's own fee on the way: untaxed.
    expect(sell.taxBps).toBe(0);
  });

  it("on a node without eth_simulateV1 the sell falls back to the detector's code at the holder, and says so", async () => {
    const sell = await holderSell(kind, withoutSimulate());
    // With code at its address the holder is refused (strict) or its send moves nothing (silent):
    // the reading a person never meets, which is why the wallet's own transactions come first.
    expect(sell).toMatchObject({ seller: 'code_at_holder', ok: false });
    if (kind === 'strict') expect(sell.revertReason).toBe('wallets only');
  });
});
