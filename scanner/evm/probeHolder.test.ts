import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, parseAbi, parseEther, type PublicClient } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevSender } from '../../infra/devnet/client.ts';
import { type ListingDevnet, listWithPair, startListingDevnet } from '../../test/support/listedTokens.ts';
import { classify } from './discoverPowers.ts';
import { PROBE_VICTIM, probePrivileges } from './probePrivileges.ts';

// The probe's holder has no code and acts from its constructor, in a step with a holder to create;
// a reviewer briefed to break that found two gas faults, kept here: a harmless heavy call left the
// holder's sell too little gas (a false limit), and a token whose sends and sells are costly had
// every sell check switched off (a missed limit).

const tokenAbi = parseAbi([
  'function setGas(uint256 sell, uint256 send)',
  'function heavy(uint256 gas)',
  'function stopSells(address account)',
]);
let devnet: ListingDevnet;
let client: PublicClient;
let sender: DevSender;
let owner: Address;
let router: Address;
let token: Address;
let pair: Address;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  ({ client, sender, owner } = devnet);
  router = devnet.dex.router;
  const supply = 10n ** 27n;
  ({ address: token, pair } = await listWithPair(devnet, 'GasHeavyToken', {
    args: [supply],
    tokens: supply / 2n,
    eth: parseEther('10'),
  }));
});
afterAll(() => devnet.node.stop());

async function ownerCall(data: `0x${string}`) {
  await sender.send({ label: 'owner call', to: token, data });
  await sender.settle();
}

const heavyCall = (label: string, gas: bigint) => ({
  label,
  data: encodeFunctionData({ abi: tokenAbi, functionName: 'heavy', args: [gas] }),
});
const stopSells = {
  label: 'stopSells',
  data: encodeFunctionData({ abi: tokenAbi, functionName: 'stopSells', args: [PROBE_VICTIM] }),
};

/** The owner's calls, probed at the latest block with the holder's buy, send and sell. */
async function probeAsOwner(calls: { label: string; data: `0x${string}` }[]) {
  return probePrivileges(client, {
    token,
    actor: owner,
    router,
    sellTo: pair,
    blockNumber: await client.getBlockNumber(),
    calls,
  });
}

async function probe(sellGas: bigint, sendGas: bigint, heavy: bigint) {
  await ownerCall(encodeFunctionData({ abi: tokenAbi, functionName: 'setGas', args: [sellGas, sendGas] }));
  const result = await probeAsOwner([heavyCall('heavy', heavy), stopSells]);
  const [heavyEffect, stopEffect] = result.effects;
  if (!heavyEffect || !stopEffect) throw new Error('the probe answered fewer effects than calls');
  return {
    baseline: result.baselineEffect,
    heavy: classify(heavyEffect, result.baselineEffect),
    stop: classify(stopEffect, result.baselineEffect),
  };
}

describe('the probe holder', () => {
  it('sends although the token refuses senders with code: it has none', async () => {
    const { baseline } = await probe(0n, 0n, 0n);
    expect(baseline.victimTransfer).toMatchObject({ attempted: true, ok: true });
    expect(baseline.victimSell).toMatchObject({ attempted: true, ok: true });
    expect(await client.getCode({ address: PROBE_VICTIM })).toBeUndefined();
  });

  it.each([
    [150_000n, 600_000n],
    [250_000n, 500_000n],
    [450_000n, 300_000n],
  ])(
    'reads a heavy call that changes nothing as no power (sells burning %i gas, the call %i)',
    async (sellGas, heavy) => {
      const result = await probe(sellGas, 0n, heavy);
      expect(result.baseline.victimSell.ok).toBe(true);
      expect(result.heavy).toEqual([]);
      expect(result.stop).toEqual(['limit']);
    },
  );

  it('still sees a sell stop where sends and sells both cost 250k gas', async () => {
    const result = await probe(250_000n, 250_000n, 0n);
    expect(result.baseline.victimSell.ok).toBe(true);
    expect(result.stop).toEqual(['limit']);
  });
});

describe('a probe whose calls need more gas than one eth_call has', () => {
  it('runs every call, in as many round trips as the gas asks, and sees a power after them', async () => {
    await ownerCall(encodeFunctionData({ abi: tokenAbi, functionName: 'setGas', args: [0n, 0n] }));
    // Eighty calls of ~0.8M gas each, with the holder's steps over 1.3 times what one probe may spend
    // (48M). All of them once reverted the whole probe, and with it the calls that would have shown something.
    const heavy = Array.from({ length: 80 }, (_, index) => heavyCall(`heavy ${index}`, 800_000n));
    const result = await probeAsOwner([...heavy, stopSells]);
    expect(result.roundTrips).toBeGreaterThanOrEqual(2);
    expect(result.effects.map((effect) => effect.label)).toEqual([
      ...heavy.map((call) => call.label),
      'stopSells',
    ]);
    for (const effect of result.effects.slice(0, 80)) {
      expect(effect.gasUsed).toBeGreaterThan(700_000n);
      expect(classify(effect, result.baselineEffect)).toEqual([]);
    }
    expect(classify(result.effects[80] as (typeof result.effects)[number], result.baselineEffect)).toEqual([
      'limit',
    ]);
  });
});
