import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  maxUint256,
  parseAbi,
  parseEther,
  type TransactionReceipt,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStack } from '../../../test/support/fixtures.ts';
import { type AnvilInstance, startAnvil } from '../anvil.ts';
import { createDevnetClient, type DevnetClient } from '../client.ts';
import { SUPPLY } from '../launch.ts';
import { callTarget, corpusEntries, corpusWallet, encodeCall } from './deploy.ts';
import { HARM_CLASSES, type HarmClass, isHealthyMarket } from './schema.ts';
import type { CorpusLiveContext, HarmProof } from './spec.ts';

// Every class a corpus label claims is shown by its author's own exploit, run on a fork of the
// test devnet (so the shared chain never changes): a label that does not hold fails here, before
// it can distort the figures measured on the corpus.

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);
/** A sell that returns less than this share of the router's quote is taxed above 10 %. */
const SELL_KEPT_BPS = 9_000n;

let fork: AnvilInstance;
let client: DevnetClient;

beforeAll(async () => {
  fork = await startAnvil({ forkUrl: testStack().rpcUrl });
  // A request fails well inside a test's minute, so a stalled one (the fork waiting on the shared
  // node under a loaded CI machine) ends its own test and reverts its snapshot before the next.
  client = createDevnetClient(fork.url, { timeoutMs: 20_000 });
});
afterAll(() => fork?.stop());

let previous: Promise<unknown> = Promise.resolve();
/**
 * Runs `work` on the fork from a snapshot and reverts it after, one test at a time: a test that
 * timed out is still running, and its late revert (to a snapshot older than the next test's)
 * would otherwise pull the chain out from under the tests after it. Once, a stalled control took
 * the twelve after it down this way.
 */
function onFork<T>(work: () => Promise<T>): Promise<T> {
  const run = previous.then(async () => {
    const snapshot = await client.snapshot();
    try {
      return await work();
    } finally {
      await client.revert({ id: snapshot });
    }
  });
  previous = run.catch(() => undefined);
  return run;
}

const { scenario } = testStack();
const proven = corpusEntries().flatMap((entry) =>
  HARM_CLASSES.filter((harm) => entry.spec.labels[harm]).map((harm) => ({ entry, harm })),
);

// One retry: a request the fork could not answer in time (it fetches state from the shared node)
// is the machine's, not the label's; a label that does not hold fails both times.
describe('corpus labels', { retry: 1 }, () => {
  it('labels every scam with a class, and gives every class a proof', () => {
    for (const { key, spec } of corpusEntries()) {
      const claimed = HARM_CLASSES.filter((harm) => spec.labels[harm]);
      expect(claimed.length > 0, key).toBe(spec.labels.group === 'scam');
      for (const harm of claimed) expect(spec.proofs?.[harm], `${key} ${harm}`).toBeDefined();
    }
  });

  it.each(proven.map(({ entry, harm }) => [entry.key, harm, entry] as const))(
    '%s: the %s label holds',
    async (key, harm, entry) => {
      const token = scenario.corpus[key];
      const deployer = scenario.deployers[key];
      const proof = entry.spec.proofs?.[harm];
      if (!token || !deployer || !proof) throw new Error(`${key} has no deployment or proof`);
      const context: CorpusLiveContext = {
        supply: SUPPLY,
        router: scenario.dex.router,
        deployer,
        wallet: corpusWallet,
        helpers: token.helpers,
        token: token.address,
        pair: token.pair,
        traders: scenario.traders,
        implementations: {},
      };
      await onFork(() => expectEffect(harm, context, proof));
    },
  );
});

// The control: the same measures on benign tokens with a healthy market find nothing, so the
// proofs above are not passing by construction.
const controls = corpusEntries().filter(
  ({ spec }) => spec.labels.group !== 'scam' && isHealthyMarket(spec.market),
);

describe('corpus controls', { retry: 1 }, () => {
  it.each(controls.map((entry) => [entry.key] as const))(
    '%s: an ordinary holder sells at the quoted price',
    async (key) => {
      const token = scenario.corpus[key];
      if (!token) throw new Error(`${key} was not deployed`);
      const context = { router: scenario.dex.router, token: token.address };
      expect(await onFork(() => sellKeepsMostOfItsValue(context, scenario.traders[0] as Address))).toBe(true);
    },
  );
});

async function expectEffect(harm: HarmClass, context: CorpusLiveContext, proof: HarmProof) {
  const holder = context.traders[0] as Address;
  const read = (functionName: 'totalSupply' | 'balanceOf') =>
    functionName === 'totalSupply'
      ? client.readContract({ address: context.token, abi: erc20Abi, functionName })
      : client.readContract({ address: context.token, abi: erc20Abi, functionName, args: [holder] });
  const balanceOf = (owner: Address) =>
    client.readContract({ address: context.token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
  const wethOfPair = () =>
    client.readContract({
      address: scenario.dex.weth,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [context.pair],
    });
  const senders = [
    ...new Set(
      proof.steps.map((step) => (step.from === undefined ? context.deployer : corpusWallet(step.from))),
    ),
  ];
  // The senders' balances and the pool's: where tokens written into being without the supply land.
  const sendersHold = async () =>
    (await Promise.all([...senders, context.pair].map(balanceOf))).reduce((sum, value) => sum + value, 0n);
  if (proof.afterSeconds) {
    await client.increaseTime({ seconds: proof.afterSeconds });
    await client.mine({ blocks: 1 });
  }
  // The steps that set the stage (the market's trades) go first, and the effect counts from them.
  const staging = proof.measureFrom ?? 0;
  for (const step of proof.steps.slice(0, staging)) await send(step);
  const [supplyBefore, balanceBefore, sendersBefore, pairBefore, pairWethBefore] = await Promise.all([
    read('totalSupply'),
    read('balanceOf'),
    sendersHold(),
    balanceOf(context.pair),
    wethOfPair(),
  ]);
  expect(balanceBefore, 'the first trader holds tokens to be harmed').toBeGreaterThan(0n);
  for (const step of proof.steps.slice(staging)) await send(step);
  async function send(step: HarmProof['steps'][number]) {
    if (step.afterSeconds) {
      await client.increaseTime({ seconds: step.afterSeconds });
      await client.mine({ blocks: 1 });
    }
    if (step.afterBlocks) await client.mine({ blocks: step.afterBlocks });
    const from = step.from === undefined ? context.deployer : corpusWallet(step.from);
    await client.impersonateAccount({ address: from });
    await client.setBalance({ address: from, value: parseEther('10') });
    const hash = await client.sendUnsignedTransaction({
      from,
      to: await callTarget(client, step, context),
      data: encodeCall(step, context),
      // Not estimated: an estimate made in a block whose clock has not moved misses the pair's
      // price accumulators, which a sync() in the mined block (a second later) writes.
      gas: 5_000_000n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 20_000 });
    expect(receipt.status, step.signature).toBe('success');
  }
  if (harm === 'mint') {
    // The supply rose, or the senders' and the pool's balances rose beyond it (tokens totalSupply()
    // does not count).
    const raised = (await read('totalSupply')) - supplyBefore;
    expect(raised > 0n || (await sendersHold()) - sendersBefore > raised).toBe(true);
  }
  if (harm === 'leak') {
    // The holder's balance fell, or the pool's (a holder too) fell without a swap paying it.
    const pairTaken = (await balanceOf(context.pair)) < pairBefore && (await wethOfPair()) <= pairWethBefore;
    expect((await read('balanceOf')) < balanceBefore || pairTaken).toBe(true);
  }
  if (harm === 'limit') expect(await sellKeepsMostOfItsValue(context, holder)).toBe(false);
}

/** The holder sells half its tokens through the router: false when that reverts or is taxed above 10 %. */
async function sellKeepsMostOfItsValue(
  context: Pick<CorpusLiveContext, 'router' | 'token'>,
  holder: Address,
): Promise<boolean> {
  const { router } = context;
  const weth = scenario.dex.weth;
  const held = () =>
    client.readContract({ address: context.token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
  const heldBefore = await held();
  const amount = heldBefore / 2n;
  const [, quoted] = await client.readContract({
    address: router,
    abi: routerAbi,
    functionName: 'getAmountsOut',
    args: [amount, [context.token, weth]],
  });
  const before = await client.getBalance({ address: holder });
  let receipt: TransactionReceipt;
  try {
    const hash = await client.sendUnsignedTransaction({
      from: holder,
      to: router,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
        args: [amount, 0n, [context.token, weth], holder, maxUint256],
      }),
      gas: 5_000_000n,
    });
    receipt = await client.waitForTransactionReceipt({ hash, timeout: 20_000 });
  } catch {
    return false;
  }
  if (receipt.status !== 'success') return false;
  const received =
    (await client.getBalance({ address: holder })) - before + receipt.gasUsed * receipt.effectiveGasPrice;
  // A seller charged more tokens than it sold (a fee taken from what it keeps) is measured against
  // the value of what it lost.
  const lost = heldBefore - (await held());
  const worth = lost > amount ? ((quoted ?? 0n) * lost) / amount : (quoted ?? 0n);
  return received * 10_000n >= worth * SELL_KEPT_BPS;
}
