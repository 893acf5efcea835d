import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PublicClient,
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  http,
  parseAbi,
} from 'viem';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import {
  buildHoneypotDetectorArtifact,
  formatHoneypotDetectorArtifact,
  readCommittedHoneypotDetectorArtifact,
} from '../../infra/devnet/detectorArtifact.ts';
import { type Scenario, deployScenario } from '../../infra/devnet/scenario.ts';
import { HONEYPOT_DETECTOR_CODE, honeypotDetectorAbi, probeHolderAddress } from './honeypotDetector.ts';
import { PROBE_VICTIM } from './probePrivileges.ts';
import {
  HONEYPOT_DETECTOR_ADDRESS,
  RoundTripSimulationError,
  type SimulateRoundTripReturnType,
  roundTripToJson,
  simulateRoundTrip,
} from './simulateRoundTrip.ts';
import { simulateHolderSell } from './simulateHolderSell.ts';
import { simulationGasPrice } from './simulationGasPrice.ts';

// Taxes are measured against the router's quote at the same reserves, so they come out exact up
// to integer rounding; the sell tax is quoted in ETH and the pool's curve adds a little.
const TAX_TOLERANCE_BPS = 50;

let node: AnvilInstance;
let client: PublicClient;
let scenario: Scenario;

beforeAll(async () => {
  node = await startAnvil();
  scenario = await deployScenario(node.url);
  client = createPublicClient({ transport: http(node.url) });
});
afterAll(() => node.stop());

const simulate = (token: keyof Scenario['tokens']): Promise<SimulateRoundTripReturnType> =>
  simulateRoundTrip(client, { router: scenario.dex.router, token: scenario.tokens[token].address });

describe('HoneypotDetector artifact', () => {
  it('is what the committed source compiles to (rebuild with infra/devnet/detectorArtifact.ts)', async () => {
    const fresh = formatHoneypotDetectorArtifact(await buildHoneypotDetectorArtifact());
    expect(await readCommittedHoneypotDetectorArtifact()).toBe(fresh);
    expect(HONEYPOT_DETECTOR_CODE).toBe((JSON.parse(fresh) as { deployedBytecode: string }).deployedBytecode);
  });

  it('has the ABI the typed client encodes against', async () => {
    const { abi } = await buildHoneypotDetectorArtifact();
    // solc adds internalType (Solidity type names) that a human-readable ABI does not carry.
    const withoutInternalTypes = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value, (key, field: unknown) => (key === 'internalType' ? undefined : field)),
      );
    const functions = abi.filter((item) => item.type === 'function');
    expect(withoutInternalTypes(functions)).toEqual(withoutInternalTypes(honeypotDetectorAbi));
  });
});

describe('the probe holder', () => {
  it('is created where the scanner expects it, and has no code while it acts', async () => {
    const factory = '0x00000000000000000000000000000000000f4c70' as const;
    const { data } = await client.call({
      to: factory,
      data: encodeFunctionData({ abi: honeypotDetectorAbi, functionName: 'holderOf', args: [factory] }),
      stateOverride: [{ address: factory, code: HONEYPOT_DETECTOR_CODE }],
    });
    const holder = decodeFunctionResult({
      abi: honeypotDetectorAbi,
      functionName: 'holderOf',
      data: data ?? '0x',
    });
    expect(probeHolderAddress(factory)).toBe(holder);
    expect(PROBE_VICTIM).not.toBe(factory);
    // Nothing is put at the holder's address: its code stays empty on the node.
    expect(await client.getCode({ address: PROBE_VICTIM })).toBeUndefined();
  });
});

describe('simulateRoundTrip', () => {
  it('every scenario token: the simulation agrees with its ground truth', async () => {
    for (const [key, token] of Object.entries(scenario.tokens)) {
      const { expected } = token;
      // A drained pool has nothing to trade against: the engine reports it rather than simulating.
      if (!expected.simulable) continue;
      const result = await simulateRoundTrip(client, { router: scenario.dex.router, token: token.address });
      expect(result.pair, key).toBe(token.pair);
      expect(result.buy.ok, key).toBe(!expected.cannotBuy);
      if (expected.cannotBuy) continue;
      const sold = result.sell.ok ? result.sell : result.sellPartial;
      expect(sold.ok, key).toBe(!expected.honeypot);
      expect(Math.abs((result.buy.taxBps ?? NaN) - expected.buyTaxBps), key).toBeLessThanOrEqual(
        TAX_TOLERANCE_BPS,
      );
      expect(Math.abs((result.transfer.taxBps ?? NaN) - expected.transferTaxBps), key).toBeLessThanOrEqual(
        TAX_TOLERANCE_BPS,
      );
      if (expected.honeypot) expect(result.sell.revertReason, key).toBe(expected.sellRevertReason);
      else
        expect(Math.abs((sold.taxBps ?? NaN) - expected.sellTaxBps), key).toBeLessThanOrEqual(
          TAX_TOLERANCE_BPS,
        );
    }
  });

  it('a token that forbids selling everything: the whole sell reverts, 90 % sells', async () => {
    const result = await simulate('sell_limit');
    expect(result.sell).toMatchObject({ attempted: true, ok: false, revertReason: 'keep some tokens' });
    expect(result.sellPartial.ok).toBe(true);
  });

  it('a per-wallet cooldown: the second buy in the same block reverts', async () => {
    const result = await simulate('cooldown');
    expect(result.buy.ok).toBe(true);
    // The pair reports the token's refusal as its own TRANSFER_FAILED: buys cannot surface the token's reason.
    expect(result.buyAgain).toMatchObject({
      attempted: true,
      ok: false,
      revertReason: 'UniswapV2: TRANSFER_FAILED',
    });
  });

  it('a max-transaction limit: a large buy reverts and leaves no trace', async () => {
    const result = await simulateRoundTrip(client, {
      router: scenario.dex.router,
      token: scenario.tokens.limits.address,
      largeAmountIn: 10n ** 18n,
    });
    expect(result.largeBuy).toMatchObject({
      attempted: true,
      ok: false,
      revertReason: 'UniswapV2: TRANSFER_FAILED',
    });
    expect(result.buy.ok).toBe(true);
    const clean = await simulateRoundTrip(client, {
      router: scenario.dex.router,
      token: scenario.tokens.clean.address,
      largeAmountIn: 10n ** 18n,
    });
    expect(clean.largeBuy.ok).toBe(true);
    // Undone: the small buy after it was quoted on the untouched pool.
    expect(clean.buy.taxBps).toBeLessThanOrEqual(1);
  });

  it('clean token: every leg succeeds and nothing is taxed', async () => {
    const result = await simulate('clean');
    for (const leg of [result.buy, result.transfer, result.sell]) {
      expect(leg).toMatchObject({ attempted: true, ok: true, revertReason: null, revertData: null });
      expect(Math.abs(leg.taxBps ?? NaN)).toBeLessThanOrEqual(1);
      expect(leg.received).toBeGreaterThan(0n);
      expect(leg.gasUsed).toBeGreaterThan(0n);
    }
    expect(result.buy.amountIn).toBe(10n ** 16n);
    expect(result.transfer.amountIn + result.sell.amountIn).toBe(result.buy.received);
  });

  it('honeypot: the buy works, the sell fails with the token’s own reason', async () => {
    const result = await simulate('honeypot');
    expect(result.buy).toMatchObject({ ok: true, taxBps: 0 });
    expect(result.transfer.ok).toBe(true);
    expect(result.sell).toMatchObject({ attempted: true, ok: false, received: 0n, taxBps: null });
    expect(result.sell.revertReason).toBe('HONEY: sells are paused');
    expect(result.sell.revertReason).not.toContain('TRANSFER_FROM_FAILED');
    expect(result.sell.revertData).toMatch(/^0x08c379a0/);
  });

  it('high-tax token: the buy is untaxed and the sell tax is the configured 30 %', async () => {
    const result = await simulate('high_tax');
    expect(result.buy).toMatchObject({ ok: true, taxBps: 0 });
    expect(result.transfer).toMatchObject({ ok: true, taxBps: 0 });
    expect(result.sell.ok).toBe(true);
    expect(Math.abs((result.sell.taxBps ?? NaN) - 3_000)).toBeLessThanOrEqual(TAX_TOLERANCE_BPS);
    expect(result.sell.received).toBeLessThan(result.sell.expected);
  });

  it('mintable token: trades like a clean one', async () => {
    const result = await simulate('mintable');
    expect([result.buy.ok, result.transfer.ok, result.sell.ok]).toEqual([true, true, true]);
    expect([result.buy.taxBps, result.transfer.taxBps, result.sell.taxBps]).toEqual([0, 0, 0]);
  });

  it('sends nothing and leaves no code behind', async () => {
    const blockBefore = await client.getBlockNumber({ cacheTime: 0 });
    await simulate('clean');
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(blockBefore);
    expect(await client.getCode({ address: HONEYPOT_DETECTOR_ADDRESS })).toBeUndefined();
  });

  it('simulates at a pinned block with a chosen amount', async () => {
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    const result = await simulateRoundTrip(client, {
      router: scenario.dex.router,
      token: scenario.tokens.clean.address,
      amountIn: 10n ** 17n,
      blockNumber,
    });
    expect(result.blockNumber).toBe(blockNumber);
    expect(result.buy).toMatchObject({ ok: true, amountIn: 10n ** 17n });
  });

  it('trades at the gas price a wallet pays when given one: a sell gated on tx.gasprice shows', async () => {
    // The corpus token whose owner may lower a sell gas-price ceiling; lowered here to 1 wei.
    const token = scenario.corpus.t_gas_ceiling?.address;
    const owner = scenario.deployers.t_gas_ceiling;
    if (!token || !owner) throw new Error('no corpus token t_gas_ceiling');
    const devnet = createDevnetClient(node.url);
    await devnet.impersonateAccount({ address: owner });
    await devnet.setBalance({ address: owner, value: 10n ** 19n });
    const hash = await devnet.sendUnsignedTransaction({
      from: owner,
      to: token,
      data: encodeFunctionData({
        abi: parseAbi(['function setGasCeiling(uint256)']),
        functionName: 'setGasCeiling',
        args: [1n],
      }),
    });
    expect((await devnet.waitForTransactionReceipt({ hash })).status).toBe('success');
    const blockNumber = await client.getBlockNumber({ cacheTime: 0 });
    const gasPrice = await simulationGasPrice(client, blockNumber);
    expect(gasPrice).toBeGreaterThan(1n);
    const atZero = await simulateRoundTrip(client, { router: scenario.dex.router, token, blockNumber });
    const atWalletPrice = await simulateRoundTrip(client, {
      router: scenario.dex.router,
      token,
      blockNumber,
      ...(gasPrice === undefined ? {} : { gasPrice }),
    });
    expect(atZero.sell.ok).toBe(true);
    expect(atWalletPrice.buy.ok).toBe(true);
    expect(atWalletPrice.sell).toMatchObject({ ok: false, revertReason: 'gas price above the ceiling' });
    // A real holder's sell, as the trading engine simulates it: the same.
    const accounts = scenario.traders;
    const balances = await Promise.all(
      accounts.map((account) =>
        client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] }),
      ),
    );
    const index = accounts.findIndex((account, at) => account !== owner && (balances[at] ?? 0n) > 0n);
    const holder = accounts[index];
    const held = balances[index];
    const pair = atZero.pair;
    if (!holder || !held || !pair) throw new Error('no holder of t_gas_ceiling among the traders');
    const sell = {
      router: scenario.dex.router,
      weth: scenario.dex.weth,
      pair,
      token,
      holder,
      held,
      blockNumber,
    };
    expect(await simulateHolderSell(client, sell)).toMatchObject({ ok: true, seller: 'wallet' });
    expect(await simulateHolderSell(client, { ...sell, gasPrice })).toMatchObject({
      ok: false,
      revertReason: 'gas price above the ceiling',
      seller: 'wallet',
    });
  });

  it('reports a token without a WETH pair as untradeable rather than failing', async () => {
    const result = await simulateRoundTrip(client, { router: scenario.dex.router, token: scenario.dex.weth });
    expect(result.pair).toBeNull();
    for (const leg of [result.buy, result.transfer, result.sell])
      expect(leg).toMatchObject({ attempted: false, ok: false });
  });

  it('fails with a structured error, without the RPC URL, when the router is not a router', async () => {
    const attempt = simulateRoundTrip(client, {
      router: scenario.tokens.clean.address,
      token: scenario.tokens.clean.address,
    });
    await expect(attempt).rejects.toBeInstanceOf(RoundTripSimulationError);
    await expect(attempt).rejects.not.toThrow(node.url);
  });

  it('serialises to JSON with amounts as decimal strings', async () => {
    const result = await simulate('high_tax');
    const json = JSON.parse(JSON.stringify(roundTripToJson(result))) as ReturnType<typeof roundTripToJson>;
    expect(json.sell.expected).toBe(result.sell.expected.toString());
    expect(json.buy.gasUsed).toMatch(/^\d+$/);
    expect(json.sell.taxBps).toBe(result.sell.taxBps);
  });

  it('takes a few milliseconds per simulation', async () => {
    const runs = 20;
    const startedAt = performance.now();
    for (let run = 0; run < runs; run++) await simulate('high_tax');
    console.log(`simulateRoundTrip: ${((performance.now() - startedAt) / runs).toFixed(1)} ms per call`);
  });
});
