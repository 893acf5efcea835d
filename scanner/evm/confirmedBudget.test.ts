import { fileURLToPath } from 'node:url';
import { type Address, getAddress, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListingDevnet,
  listWithPair,
  scanContractSafety,
  startListingDevnet,
} from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// A power applied in a third block (vigil-risk/37): a council proposes, the owner confirms in a
// later block and mints in a block after that. The later-block round stages the proposal, sees
// the confirmation (refused at the block, or working there without writing: /38) work and write
// after it, and then makes it in a block of its own halfway between the proposal's and the
// probe's (/40).

const SUPPLY = 10n ** 27n;
/** The council: a wallet with no code; discovery calls as it with the detector's code. */
const COUNCIL: Address = getAddress('0x5b3e0c9d7a41f28e6c1d09b7a3f54e2c8d6b1a97');

let devnet: ListingDevnet;
const tokens = {} as Record<'confirmed' | 'quiet' | 'noticed', Address>;

beforeAll(async () => {
  devnet = await startListingDevnet(fileURLToPath(new URL('./testContracts/', import.meta.url)));
  for (const [key, contract] of [
    ['confirmed', 'CbConfirmedBudget'],
    ['quiet', 'CbQuietConfirmedBudget'],
    ['noticed', 'CbNoticedBudget'],
  ] as const)
    tokens[key] = (
      await listWithPair(devnet, contract, {
        args: [SUPPLY, COUNCIL],
        tokens: SUPPLY / 2n,
        eth: parseEther('10'),
      })
    ).address;
}, 120_000);
afterAll(() => devnet.node.stop());

const mintCheck = async (key: keyof typeof tokens) =>
  (await scanContractSafety(devnet, tokens[key])).checks.find((check) => check.id === 'is_mintable');

describe('a proposal, its confirmation in a later block, and the power in a block after that', () => {
  it('reads the mint, the proposal and the confirmation as its evidence', async () => {
    const check = await mintCheck('confirmed');
    expect(check?.status).toBe(CheckStatus.fail);
    const evidence = check?.evidence.find((each) => each.kind === 'simulation');
    expect(evidence?.data).toMatchObject({
      first_block: 'earlier',
      prelude_block: 'halfway between the first call and this one',
      caller: getAddress(devnet.owner),
    });
    expect(check?.detail).toContain(
      `sent as a transaction by ${COUNCIL} in a block of its own, then in a later block`,
    );
  }, 120_000);

  it('reads it where the confirmation works quietly at the block, writing nothing', async () => {
    const check = await mintCheck('quiet');
    expect(check?.status).toBe(CheckStatus.fail);
    expect(check?.evidence.find((each) => each.kind === 'simulation')?.data).toMatchObject({
      prelude_block: 'halfway between the first call and this one',
    });
  }, 120_000);

  it('finds no mint where the confirmed budget waits two days in public', async () => {
    const check = await mintCheck('noticed');
    expect(check?.status).toBe(CheckStatus.pass);
  }, 120_000);
});
