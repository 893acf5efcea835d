import { type Address, encodeFunctionData, getContractAddress, type Hex, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { SUPPLY, renouncedTokenScans, sentOnSnapshot } from '../../test/support/renouncedTokens.ts';
import { labelledWallet, onSnapshot, sendAs } from '../../test/support/listedTokens.ts';

// Adversarial review of vigil-risk/51: external_call passes a DELEGATECALL to fixed code that
// cannot change (a module at a constant address with code, no SELFDESTRUCT, no EIP-7702
// designator, delegating only to such code: scanner/evm/fixedModules.ts), on the reasoning that
// such code runs only inside the token's own functions, which the probes call. Contracts:
// testContracts/FixedModuleAttacks.sol (prefix Fx). Each scam's harm is first made on the devnet as
// real transactions (so no verdict is taken on trust); the right verdict for a scam is external_call
// failing or a harm class found. `it.fails` marks a verdict the scanner gets wrong today.
// Mended before /51 landed: a fixed module passes only as pure computation (no SSTORE, TSTORE,
// SELFDESTRUCT, call or create anywhere it could run), which closes attacks 1 to 3, and eight
// modules are read instead of four, which clears the honest five.

const SCAN_TIMEOUT = 120_000;
/** The insider of every Fx scam (keccak256("fx.operator")); no key here. */
const OPERATOR = labelledWallet('fx', 'operator');
const STRANGER = labelledWallet('fx', 'stranger');

type Scam = 'sweep' | 'halt' | 'selfFee' | 'bomb' | 'policy';
type Honest = 'five';
type Key = Scam | Honest;
const CONTRACTS: Record<Key, string> = {
  sweep: 'FxFallbackSweep',
  halt: 'FxPluginHalt',
  selfFee: 'FxSelfStoredFee',
  bomb: 'FxTimeBomb',
  policy: 'FxPolicySell',
  five: 'FxFiveModules',
};
const abi = parseAbi([
  'function sweep(address from, uint256 amount)',
  'function plugin(bytes data)',
  'function halt()',
  'function setSellFee(uint256 bps)',
  'function setSellsBlocked(bool blocked)',
  'function pair() view returns (address)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

const suite = renouncedTokenScans(new URL('./testContracts/', import.meta.url), CONTRACTS);
const { tokens, scan, classes } = suite;
const NONE = { mint: false, leak: false, limit: false };
const tenth = SUPPLY / 10n;
const small = 10n ** 21n;

const transfer = (to: Address, value: bigint): Hex =>
  encodeFunctionData({ abi, functionName: 'transfer', args: [to, value] });
const pairOf = (key: Key) =>
  suite.devnet.client.readContract({ address: tokens[key], abi, functionName: 'pair' });
const balanceOf = (key: Key, account: Address) =>
  suite.devnet.client.readContract({ address: tokens[key], abi, functionName: 'balanceOf', args: [account] });
/** The first contract a token created in its constructor: its module. */
const moduleOf = (key: Key): Address => getContractAddress({ from: tokens[key], nonce: 1n });
/** FxPolicySell's policy: the first contract it created (its module the second). */
const policyOf = moduleOf;
const externalCall = async (key: Key) => (await scan(key)).checks.find((each) => each.id === 'external_call');
/** The right verdict for a scam: external_call fails, or discovery finds a harm class. */
const caught = async (key: Key) => {
  const [delegate, found] = [await externalCall(key), await classes(key)];
  return { caught: delegate?.status === 'fail' || Object.values(found).some(Boolean) };
};
const CAUGHT = { caught: true };

describe('the scans themselves', () => {
  it('every token scanned, every probe ran', async () => {
    for (const key of Object.keys(CONTRACTS) as Key[])
      expect((await scan(key)).facts.discovery, key).toMatchObject({ failures: [] });
  });
});

describe('scams behind fixed code that cannot change', () => {
  it("control: the operator's sweep, sent to the fallback, takes the holder's tokens", async () => {
    const sweep = encodeFunctionData({ abi, functionName: 'sweep', args: [suite.devnet.owner, tenth] });
    const owner = suite.devnet.owner;
    expect(
      await sentOnSnapshot(suite.devnet, tokens.sweep, { from: OPERATOR, owner }, [sweep]),
    ).toMatchObject({
      sent: [true],
      lost: tenth,
      gained: tenth,
      minted: 0n,
    });
    expect(
      await sentOnSnapshot(suite.devnet, tokens.sweep, { from: STRANGER, owner }, [sweep]),
    ).toMatchObject({
      sent: [false],
      lost: 0n,
    });
  });

  // Attack 1. fallback() delegates any calldata to a module created in the constructor (an
  // immutable: a constant target, code that cannot change). The module's sweep(address, uint256)
  // is a selector the token's dispatcher never compares, so discovery (which calls the selectors
  // of the token's and an implementation's dispatchers, and a made-up fallback selector) never
  // calls it, and OPERATOR is named only in the module's code. "Fixed code runs only inside the
  // token's own functions" does not hold: the fallback IS a function, open to any selector.
  // Wrong under /51's first cut: external_call passed (fixed code) and no class was found; the
  // module's sweep writes storage, so it is no pure computation and external_call fails.
  it(
    'a fallback into a fixed module whose own function sweeps holders: caught',
    async () => {
      expect(await caught('sweep'), JSON.stringify(await externalCall('sweep'))).toEqual(CAUGHT);
    },
    SCAN_TIMEOUT,
  );

  it("control: the operator's halt, passed through plugin(bytes), stops the holder's sells", async () => {
    const pair = await pairOf('halt');
    const owner = suite.devnet.owner;
    const sell = { from: owner, data: transfer(pair, small) };
    const halt = encodeFunctionData({
      abi,
      functionName: 'plugin',
      args: [encodeFunctionData({ abi, functionName: 'halt' })],
    });
    expect(await sentOnSnapshot(suite.devnet, tokens.halt, { from: OPERATOR, owner }, [sell])).toMatchObject({
      sent: [true],
    });
    expect(
      await sentOnSnapshot(suite.devnet, tokens.halt, { from: OPERATOR, owner }, [halt, sell]),
    ).toMatchObject({ sent: [true, false], lost: 0n });
    // A stranger's halt is refused; the sell still goes.
    expect(
      await sentOnSnapshot(suite.devnet, tokens.halt, { from: STRANGER, owner }, [halt, sell]),
    ).toMatchObject({ sent: [false, true] });
  });

  // Attack 2. Every transfer delegates a check to the fixed module, which reads a flag in the
  // token's storage; the flag's only setter is the module's halt(), reached through
  // plugin(bytes calldata), which delegates whatever bytes it gets. The probes call plugin with
  // their argument shapes (a bytes word whose first four bytes are no selector of the module's),
  // never with halt()'s selector. Wrong under /51's first cut: external_call passed and no limit
  // was found; the module writes storage (halt), so it is no pure computation.
  it(
    "a plugin entry point into a fixed module that sets the token's halt flag: caught",
    async () => {
      expect(await caught('halt'), JSON.stringify(await externalCall('halt'))).toEqual(CAUGHT);
    },
    SCAN_TIMEOUT,
  );

  it("control: the operator sets the module's own sell fee, and every sell goes to the operator", async () => {
    const pair = await pairOf('selfFee');
    const owner = suite.devnet.owner;
    const moved = await onSnapshot(suite.devnet, async () => {
      const before = [await balanceOf('selfFee', pair), await balanceOf('selfFee', OPERATOR)];
      const set = await sendAs(suite.devnet, {
        from: OPERATOR,
        to: moduleOf('selfFee'),
        data: encodeFunctionData({ abi, functionName: 'setSellFee', args: [10_000n] }),
      });
      const sold = await sendAs(suite.devnet, {
        from: owner,
        to: tokens.selfFee,
        data: transfer(pair, small),
      });
      return {
        set,
        sold,
        pairGained: (await balanceOf('selfFee', pair)) - (before[0] ?? 0n),
        operatorGained: (await balanceOf('selfFee', OPERATOR)) - (before[1] ?? 0n),
      };
    });
    expect(moved).toEqual({ set: true, sold: true, pairGained: 0n, operatorGained: small });
    // A stranger cannot set it.
    const strangers = await onSnapshot(suite.devnet, () =>
      sendAs(suite.devnet, {
        from: STRANGER,
        to: moduleOf('selfFee'),
        data: encodeFunctionData({ abi, functionName: 'setSellFee', args: [10_000n] }),
      }),
    );
    expect(strangers).toBe(false);
  });

  // Attack 3. The module's code is fixed but its behaviour is not: it reads its sell fee with a
  // STATICCALL to its own address (its own storage, not the token's), and the operator sets that
  // fee by calling the module directly. readFixedModules looks only at the module's code
  // (SELFDESTRUCT, 7702, delegate targets), never at the state its code reads or the contracts it
  // CALLs, and discovery never calls the module's setSellFee as the operator (named only in the
  // module's code). Wrong under /51's first cut: external_call passed and no class was found;
  // the module calls (its own address), so it is no pure computation and external_call fails.
  it(
    'a fixed module that keeps its sell fee in its own storage, set by the operator: caught',
    async () => {
      expect(await caught('selfFee'), JSON.stringify(await externalCall('selfFee'))).toEqual(CAUGHT);
    },
    SCAN_TIMEOUT,
  );

  it('control: a sell goes today, and reverts once three days have passed', async () => {
    const pair = await pairOf('bomb');
    const owner = suite.devnet.owner;
    const sold = await onSnapshot(suite.devnet, async () => {
      const now = await sendAs(suite.devnet, { from: owner, to: tokens.bomb, data: transfer(pair, small) });
      await suite.devnet.client.increaseTime({ seconds: 4 * 24 * 3600 });
      await suite.devnet.client.mine({ blocks: 1 });
      const later = await sendAs(suite.devnet, { from: owner, to: tokens.bomb, data: transfer(pair, small) });
      return { now, later };
    });
    expect(sold).toEqual({ now: true, later: false });
  });

  // Attack 4. A time bomb inside the fixed module: every sell to the pair reverts three days after
  // deployment (a timestamp in the token's storage compared in the module's code). Handled: the
  // module runs inside the probe holder's sell, whose trace shows the timestamp compared, and the
  // sell tried with the clock moved past it reverts (a limit).
  it(
    'a time bomb in a fixed module: caught',
    async () => {
      expect(await caught('bomb'), JSON.stringify(await externalCall('bomb'))).toEqual(CAUGHT);
    },
    SCAN_TIMEOUT,
  );

  it("control: the operator's policy switch stops the holder's sells; a stranger's does not", async () => {
    const pair = await pairOf('policy');
    /** On a snapshot: `from` flips the policy's switch, then the owner sells a little. */
    const switchThenSell = (from: Address) =>
      onSnapshot(suite.devnet, async () => ({
        set: await sendAs(suite.devnet, {
          from,
          to: policyOf('policy'),
          data: encodeFunctionData({ abi, functionName: 'setSellsBlocked', args: [true] }),
        }),
        sold: await sendAs(suite.devnet, {
          from: suite.devnet.owner,
          to: tokens.policy,
          data: transfer(pair, small),
        }),
      }));
    expect(await switchThenSell(OPERATOR)).toEqual({ set: true, sold: false });
    expect(await switchThenSell(STRANGER)).toEqual({ set: false, sold: true });
  });

  // Attack 6. The fixed module CALLs an ordinary Ownable policy (owner in its storage: the
  // operator) and reverts sells when it says so. Handled under both cuts: the policy the holder's
  // sell relied on is probed from the accounts it keeps (its owner, the operator), and the switch
  // shows as a limit; since the purity rule the module's CALL fails external_call too.
  // (Compare attack 3, whose module is its own policy and names the operator only in its code.)
  it(
    'a fixed module that asks a policy the operator owns whether sells may go: caught',
    async () => {
      expect(await caught('policy'), JSON.stringify(await externalCall('policy'))).toEqual(CAUGHT);
    },
    SCAN_TIMEOUT,
  );
});

describe('an honest token of several pure modules', () => {
  it('control: a transfer burns 1 %, nothing else moves', async () => {
    const owner = suite.devnet.owner;
    expect(
      await sentOnSnapshot(suite.devnet, tokens.five, { from: owner, owner, receiver: STRANGER }, [
        transfer(STRANGER, 10_000n),
      ]),
    ).toMatchObject({ sent: [true], lost: 10_000n, gained: 9_900n, minted: -100n });
  });

  // Attack 5. Five fixed, stateless modules (each a fifth of a 1 % burn) are as closed as four;
  // the first cut refused past four modules ("more than 4 modules"), eight are read since.
  it(
    'five fixed stateless modules: external_call passes, no class',
    async () => {
      const delegate = await externalCall('five');
      expect(delegate?.status, delegate?.detail).toBe('pass');
      expect(await classes('five')).toEqual(NONE);
    },
    SCAN_TIMEOUT,
  );
});
