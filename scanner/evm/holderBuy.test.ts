import { fileURLToPath } from 'node:url';
import { encodeFunctionData, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  probeAsOwner,
  scanContractSafety,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';
import { holderBuySizes, PROBE_VICTIM } from './probePrivileges.ts';

// The ordinary holder buys a share of the pool's native coin, not a fixed 0.01: a sell cap whose
// floor dust sells stay under, but a market holder's sell does not, is a cap on holders' sells
// (vigil-risk/35). Discovery keeps the largest share whose buy, send and sell are whole with no
// call; a probe whose buy is refused runs again with the small one.

const tokenAbi = parseAbi([
  'function setMaxBuy(uint256)',
  'function setMaxSell(uint256)',
  'function stopSells(address)',
]);
const SUPPLY = 10n ** 27n;
const POOL_ETH = parseEther('10');
/** The largest share: a fiftieth of the pool, 0.2 of its 10. */
const LARGE = parseEther('0.2');

let devnet: ListingDevnet;
/**
 * The cap alone, and a token that also lets its owner stop one account's sells whose owner capped
 * buys under the larger buys after listing.
 */
const tokens: Record<'open' | 'buyCapped', { address: `0x${string}`; pair: `0x${string}` }> = {} as never;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  for (const key of ['open', 'buyCapped'] as const)
    tokens[key] = await listWithPair(devnet, 'SellFloorToken', {
      args: [SUPPLY, key === 'buyCapped'],
      tokens: SUPPLY / 2n,
      eth: POOL_ETH,
    });
  // Buys of more than 0.2 % of the supply refused: a fiftieth of the pool (about 1 % of the supply,
  // half of which the pool holds) and a two-hundredth (0.25 %) are, the default 0.01 (0.05 %) is not.
  await devnet.sender.send({
    label: 'buy cap',
    to: tokens.buyCapped.address,
    data: encodeFunctionData({ abi: tokenAbi, functionName: 'setMaxBuy', args: [SUPPLY / 500n] }),
  });
  await devnet.sender.settle();
}, 120_000);
afterAll(() => devnet.node.stop());

const setMaxSellAtFloor = {
  label: 'setMaxSell',
  data: encodeFunctionData({ abi: tokenAbi, functionName: 'setMaxSell', args: [SUPPLY / 1000n] }),
};

const probe = (key: keyof typeof tokens, buyWei?: bigint) =>
  probeAsOwner(devnet, tokens[key], [setMaxSellAtFloor], buyWei);
const scan = (key: keyof typeof tokens) => scanContractSafety(devnet, tokens[key].address);

describe("the probe holder's buy", () => {
  it('is a fiftieth, a two-hundredth or a thousandth of the pool, each above 0.01', () => {
    expect(holderBuySizes(POOL_ETH)).toEqual([
      { wei: LARGE, share: '1/50' },
      { wei: parseEther('0.05'), share: '1/200' },
    ]);
    expect(holderBuySizes(parseEther('100')).map(({ share }) => share)).toEqual(['1/50', '1/200', '1/1000']);
    expect(holderBuySizes(parseEther('0.5'))).toEqual([]);
    // More than a Uniswap V2 reserve can hold is no size.
    expect(holderBuySizes(2n ** 200n)).toEqual([]);
  });

  it("sells into a cap at its floor with a market holder's size, not with dust", async () => {
    const large = await probe('open', LARGE);
    expect(large.buyRefused).toBe(false);
    expect(large.baselineEffect.victimSell).toMatchObject({ attempted: true, ok: true });
    expect(large.effects[0]?.victimSell).toMatchObject({ attempted: true, ok: false });
    const dust = await probe('open');
    expect(dust.effects[0]?.victimSell).toMatchObject({ attempted: true, ok: true });
  });

  it('buys the default again where the larger buy is refused', async () => {
    const result = await probe('buyCapped', LARGE);
    expect(result.buyRefused).toBe(true);
    expect(result.victimBuy).toMatchObject({ ok: true });
    expect(result.baselineEffect.victimSell).toMatchObject({ attempted: true, ok: true });
    expect(result.roundTrips).toBe(2);
  });
});

describe('a token whose owner may cap sells at 0.1 % of the supply, scanned', () => {
  it('reads the cap as a limit, with the buy in the evidence', async () => {
    const output = await scan('open');
    const check = output.checks.find((each) => each.id === 'sells_blockable');
    expect(check?.status).toBe(CheckStatus.fail);
    const setMaxSell = encodeFunctionData({ abi: tokenAbi, functionName: 'setMaxSell', args: [0n] }).slice(
      0,
      10,
    );
    const shown = check?.evidence.find((each) => each.data?.selector === setMaxSell);
    // Each finding names the buy its probe made.
    expect(shown?.data).toMatchObject({ holder_buy_wei: LARGE.toString() });
    expect(JSON.stringify(check?.evidence)).toContain(
      'the holder bought with 0.2 of the native coin (1/50 of the pool',
    );
    expect(output.facts.discovery).toMatchObject({
      holder_buy: { wei: LARGE.toString(), share: '1/50', sizes_tried: 1, refused_later: false },
    });
  }, 120_000);

  it('still finds what the small buy shows once every larger one is refused', async () => {
    const output = await scan('buyCapped');
    expect(output.facts.discovery).toMatchObject({ holder_buy: { wei: null, sizes_tried: 2 } });
    const check = output.checks.find((each) => each.id === 'sells_blockable');
    expect(check?.status).toBe(CheckStatus.fail);
    const stopSells = encodeFunctionData({ abi: tokenAbi, functionName: 'stopSells', args: [PROBE_VICTIM] });
    expect(check?.evidence.some((each) => each.data?.selector === stopSells.slice(0, 10))).toBe(true);
  }, 120_000);
});
