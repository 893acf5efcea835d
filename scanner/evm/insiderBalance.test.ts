import { fileURLToPath } from 'node:url';
import { type Address, encodeFunctionData, getAddress, parseAbi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  scanContractSafety,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// An insider's ordinary transfer can be the power: a sell cap read from a wallet's balance falls
// to nothing when that wallet sends everything away (vigil-risk/36). Discovery has every candidate
// but the pool send all it holds to a wallet nobody holds, and measures the holder's sell after.

const SUPPLY = 10n ** 27n;
/** The treasury: a wallet with no code and no key here; discovery calls as it with the detector's code. */
const TREASURY: Address = getAddress('0x9c1d3fa6b5e2a7c48d0e71f2b39a5c6d8e4f0b17');
const renounceAbi = parseAbi(['function renounce()']);

let devnet: ListingDevnet;
const tokens = {} as Record<'cover' | 'fixed', Address>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  for (const [key, contract] of [
    ['cover', 'IbTreasuryCover'],
    ['fixed', 'IbFixedCover'],
  ] as const) {
    const { address } = await listWithPair(devnet, contract, {
      args: [SUPPLY, TREASURY],
      tokens: SUPPLY / 2n,
      eth: parseEther('10'),
    });
    tokens[key] = address;
    await devnet.sender.send({
      label: `renounce ${contract}`,
      to: address,
      data: encodeFunctionData({ abi: renounceAbi, functionName: 'renounce' }),
    });
  }
  await devnet.sender.settle();
}, 120_000);
afterAll(() => devnet.node.stop());

const sellsCheck = async (key: keyof typeof tokens) =>
  (await scanContractSafety(devnet, tokens[key])).checks.find((check) => check.id === 'sells_blockable');

describe("an insider's whole balance sent away", () => {
  it('reads a sell cap that is a wallet’s balance as a limit, the transfer as its evidence', async () => {
    const check = await sellsCheck('cover');
    expect(check?.status).toBe(CheckStatus.fail);
    expect(check?.detail).toContain(
      "transfer(address,uint256) (a wallet nobody holds, the caller's whole balance)",
    );
    expect(check?.detail).toContain(`called as ${TREASURY}`);
    expect(check?.detail).toContain('exceeds cover');
  }, 120_000);

  it('finds nothing where the same wallet’s transfer moves no cap', async () => {
    const check = await sellsCheck('fixed');
    expect(check?.status).toBe(CheckStatus.pass);
  }, 120_000);
});
