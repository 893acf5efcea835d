import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  maxUint256,
  stringToHex,
  zeroAddress,
  zeroHash,
} from 'viem';
import { describe, expect, it } from 'vitest';
import {
  DEADLINE,
  SUPPLY,
  sentOnSnapshot,
  signedAbi as abi,
  take as takeFor,
  renouncedTokenScans,
} from '../../test/support/renouncedTokens.ts';
import { labelledWallet } from '../../test/support/listedTokens.ts';
import { CheckStatus } from '../core/schema.ts';

// The forged-signature round (forgedSignatureRound in discoverPowers.ts): permits and
// authorizations nobody signed, each permit followed by the transferFrom it would allow. Contracts:
// testContracts/ForgedPermit.sol, tokens with the same hand-rolled permit and mint-or-move balance
// helper, differing only in the signature check of one signed function, and OpenZeppelin's
// ERC20Permit. Each scam's power is first made on the devnet as real transactions by a wallet with
// no key, so no verdict is taken on trust; each honest token is shown refusing the same forgeries.

const SCAN_TIMEOUT = 120_000;
/** A wallet with no key here: whatever it gets through, anyone could. */
const STRANGER = labelledWallet('fp', 'stranger');

type Key =
  | 'zeroSigner'
  | 'unchecked'
  | 'sound'
  | 'openZeppelin'
  | 'authorizationZero'
  | 'authorizationSound'
  | 'daiUnchecked';
const CONTRACTS: Record<Key, string> = {
  zeroSigner: 'FpZeroSigner',
  unchecked: 'FpUnchecked',
  sound: 'FpSound',
  openZeppelin: 'FpOpenZeppelin',
  authorizationZero: 'FpAuthorizationZero',
  authorizationSound: 'FpAuthorizationSound',
  daiUnchecked: 'FpDaiUnchecked',
};

const suite = renouncedTokenScans(new URL('./testContracts/', import.meta.url), CONTRACTS, {
  keep: ['openZeppelin'],
  timeoutMs: 600_000,
});
const { tokens, scanTimes, scan, classes } = suite;

const forgedPermit = (owner: Address): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'permit',
    args: [owner, STRANGER, maxUint256, DEADLINE, 27, zeroHash, zeroHash],
  });
const take = (from: Address, amount: bigint): Hex => takeFor(from, amount, STRANGER);

/** The stranger's DAI-style permit for `holder`: nonce 0, allowed, no signature. */
const forgedDaiPermit = (holder: Address): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'permit',
    args: [holder, STRANGER, 0n, DEADLINE, true, 27, zeroHash, zeroHash],
  });
/** The stranger's EIP-3009 authorization of `amount` from `from` to itself, no signature. */
const forgedAuthorization = (from: Address, amount: bigint): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'transferWithAuthorization',
    args: [from, STRANGER, amount, 0n, DEADLINE, keccak256(stringToHex('fp.nonce')), 27, zeroHash, zeroHash],
  });

/** On a snapshot: the stranger's calls, each a transaction; which went through, what was minted and what `owner` lost. */
const sentByStranger = (key: Key, owner: Address, calls: Hex[]) =>
  sentOnSnapshot(suite.devnet, tokens[key], { from: STRANGER, owner }, calls);
/** The stranger's forged EIP-2612 permit for `owner`, then its transferFrom. */
const forgeAndTake = (key: Key, owner: Address, amount: bigint) =>
  sentByStranger(key, owner, [forgedPermit(owner), take(owner, amount)]);
const simulation = async (key: Key, id: string) =>
  (await scan(key)).checks.find((each) => each.id === id)?.evidence.find((each) => each.kind === 'simulation')
    ?.data;

describe('the scans themselves', () => {
  it('every token scanned within the per-scan budget, every probe ran, each class judged', async () => {
    for (const key of Object.keys(CONTRACTS) as Key[]) {
      const output = await scan(key);
      expect(output.facts.discovery, key).toMatchObject({ failures: [] });
      expect([CheckStatus.pass, CheckStatus.fail], key).toContain(
        output.checks.find((check) => check.id === 'is_mintable')?.status,
      );
      expect(scanTimes.get(key), key).toBeLessThan(SCAN_TIMEOUT);
    }
  });
});

describe('permits nobody signed', () => {
  it("control: the zero address's forged permit lets a keyless wallet mint a thousand supplies", async () => {
    const done = await forgeAndTake('zeroSigner', zeroAddress, SUPPLY * 1000n);
    expect(done).toMatchObject({ sent: [true, true], minted: SUPPLY * 1000n });
  });

  it(
    'an ecrecover answer compared with the owner and never with zero: a mint, shown with the forged permit',
    async () => {
      expect(await classes('zeroSigner')).toEqual({ mint: true, leak: false, limit: false });
      const evidence = await simulation('zeroSigner', 'is_mintable');
      expect(evidence).toMatchObject({
        prelude_selector: '0xd505accf',
        prelude_args:
          'the zero address, caller, 1000× supply, half an hour on, 27, 0 (no signature), 0 (no signature)',
        signature: 'transferFrom(address,address,uint256)',
        args: 'the zero address, caller, 1000× supply',
      });
      expect(BigInt(String(evidence?.supply_after)) - BigInt(String(evidence?.supply_before))).toBe(
        SUPPLY * 1000n + 1n,
      );
    },
    SCAN_TIMEOUT,
  );

  it("control: the holder's forged permit lets a keyless wallet take the holder's tokens", async () => {
    const holder = suite.devnet.owner;
    const done = await forgeAndTake('unchecked', holder, SUPPLY / 10n);
    expect(done).toMatchObject({ sent: [true, true], minted: 0n, lost: SUPPLY / 10n });
  });

  it(
    "a permit that checks no signature: a leak of the holder's tokens",
    async () => {
      expect(await classes('unchecked')).toMatchObject({ leak: true });
      expect(await simulation('unchecked', 'owner_change_balance')).toMatchObject({
        prelude_selector: '0xd505accf',
        prelude_args:
          "holder, caller, half the holder's balance, half an hour on, 27, 0 (no signature), 0 (no signature)",
        signature: 'transferFrom(address,address,uint256)',
        args: "holder, caller, half the holder's balance",
      });
    },
    SCAN_TIMEOUT,
  );
});

describe('the other signed entry points', () => {
  it('control: an EIP-3009 authorization forged from the zero address mints; the sound one refuses it', async () => {
    const forged = [forgedAuthorization(zeroAddress, SUPPLY * 1000n)];
    expect(await sentByStranger('authorizationZero', zeroAddress, forged)).toMatchObject({
      sent: [true],
      minted: SUPPLY * 1000n,
    });
    expect(await sentByStranger('authorizationSound', zeroAddress, forged)).toMatchObject({
      sent: [false],
      minted: 0n,
    });
    const fromHolder = [forgedAuthorization(suite.devnet.owner, SUPPLY / 10n)];
    expect(await sentByStranger('authorizationSound', suite.devnet.owner, fromHolder)).toMatchObject({
      sent: [false],
      lost: 0n,
    });
  });

  it(
    'transferWithAuthorization that takes the zero address for a signer: a mint, by the authorization alone',
    async () => {
      expect(await classes('authorizationZero')).toEqual({ mint: true, leak: false, limit: false });
      expect(await simulation('authorizationZero', 'is_mintable')).toMatchObject({
        selector: '0xe3ee160e',
        args: 'the zero address, caller, 1000× supply, 0, half an hour on, a fresh nonce, 27, 0 (no signature), 0 (no signature)',
      });
    },
    SCAN_TIMEOUT,
  );

  it("control: a DAI-style permit forged for the holder lets a keyless wallet take the holder's tokens", async () => {
    const holder = suite.devnet.owner;
    expect(
      await sentByStranger('daiUnchecked', holder, [forgedDaiPermit(holder), take(holder, SUPPLY / 10n)]),
    ).toMatchObject({ sent: [true, true], lost: SUPPLY / 10n });
  });

  it(
    'a DAI-style permit that checks no signature, beside a sound EIP-2612 one: a leak',
    async () => {
      expect(await classes('daiUnchecked')).toMatchObject({ leak: true });
      expect(await simulation('daiUnchecked', 'owner_change_balance')).toMatchObject({
        prelude_selector: '0x8fcbaf0c',
        signature: 'transferFrom(address,address,uint256)',
      });
    },
    SCAN_TIMEOUT,
  );

  it(
    'the sound authorization: no class',
    async () => {
      expect(await classes('authorizationSound')).toEqual({ mint: false, leak: false, limit: false });
    },
    SCAN_TIMEOUT,
  );
});

describe('honest permits', () => {
  it('control: the same forged permits are refused by a check of the zero address and by OpenZeppelin', async () => {
    for (const key of ['sound', 'openZeppelin'] as const) {
      const zero = await forgeAndTake(key, zeroAddress, SUPPLY);
      expect(zero, key).toMatchObject({ sent: [false, false], minted: 0n });
      const holder = await forgeAndTake(key, suite.devnet.owner, SUPPLY / 10n);
      expect(holder, key).toMatchObject({ sent: [false, false], lost: 0n });
    }
  });

  it(
    'a hand-rolled permit that refuses the zero address, and OpenZeppelin ERC20Permit: no class',
    async () => {
      expect(await classes('sound')).toEqual({ mint: false, leak: false, limit: false });
      expect(await classes('openZeppelin')).toEqual({ mint: false, leak: false, limit: false });
    },
    SCAN_TIMEOUT,
  );
});
