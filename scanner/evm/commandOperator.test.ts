import { type Address, encodeAbiParameters, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { SUPPLY, sentOnSnapshot, renouncedTokenScans } from '../../test/support/renouncedTokens.ts';
import { labelledWallet } from '../../test/support/listedTokens.ts';

// A command in bytes from an operator the contract names nowhere (vigil-risk/49): the comparison
// round names the operator from the deployer's refused call, and only a second comparison round,
// over the operator's own refused calls, reads the op code the command must carry; the command is
// one bytes argument holding an op code, an account and an amount. Contracts:
// testContracts/CommandOperator.sol. Each scam's power is first made on the devnet as the
// operator's own transactions, so no verdict is taken on trust.

const SCAN_TIMEOUT = 120_000;
const OPERATOR = labelledWallet('co', 'operator');

type Key = 'sweep' | 'burn' | 'honest';
const CONTRACTS: Record<Key, string> = {
  sweep: 'CoSweepCommand',
  burn: 'CoBurnCommand',
  honest: 'CoHonestCommand',
};
const abi = parseAbi(['function run(bytes command)']);

const suite = renouncedTokenScans(new URL('./testContracts/', import.meta.url), CONTRACTS, {
  timeoutMs: 600_000,
});
const { tokens, scanTimes, scan, classes } = suite;
const evidence = async (key: Key, id: string) =>
  (await scan(key)).checks.find((each) => each.id === id)?.evidence.find((each) => each.kind === 'simulation')
    ?.data;

const command = (op: number, account: Address, amount: bigint): Hex =>
  encodeFunctionData({
    abi,
    functionName: 'run',
    args: [
      encodeAbiParameters(
        [{ type: 'uint8' }, { type: 'address' }, { type: 'uint256' }],
        [op, account, amount],
      ),
    ],
  });
/** On a snapshot: the operator's commands as transactions, and what the holder (the lister) lost. */
const byOperator = (key: Key, calls: Hex[]) =>
  sentOnSnapshot(suite.devnet, tokens[key], { from: OPERATOR, owner: suite.devnet.owner }, calls);

describe('the scans themselves', () => {
  it('every token scanned within the per-scan budget, every probe ran', async () => {
    for (const key of Object.keys(CONTRACTS) as Key[]) {
      expect((await scan(key)).facts.discovery, key).toMatchObject({ failures: [] });
      expect(scanTimes.get(key), key).toBeLessThan(SCAN_TIMEOUT);
    }
  });
});

describe("a command's op code behind an operator named nowhere", () => {
  it("control: the operator's op 11 takes the holder's tokens, op 5 burns them; other codes are refused", async () => {
    const tenth = SUPPLY / 10n;
    expect(await byOperator('sweep', [command(11, suite.devnet.owner, tenth)])).toMatchObject({
      sent: [true],
      lost: tenth,
      gained: tenth,
    });
    expect(await byOperator('burn', [command(5, suite.devnet.owner, tenth)])).toMatchObject({
      sent: [true],
      lost: tenth,
      minted: -tenth,
    });
    expect(await byOperator('sweep', [command(0, suite.devnet.owner, tenth)])).toMatchObject({
      sent: [false],
    });
    // Nobody else gets past the operator check.
    const stranger = labelledWallet('co', 'stranger');
    expect(
      await sentOnSnapshot(suite.devnet, tokens.sweep, { from: stranger, owner: suite.devnet.owner }, [
        command(11, suite.devnet.owner, tenth),
      ]),
    ).toMatchObject({ sent: [false], lost: 0n });
  });

  it(
    "the operator's sweep: a leak, called as the operator with the op code the second round read",
    async () => {
      expect(await classes('sweep')).toEqual({ mint: false, leak: true, limit: false });
      const shown = await evidence('sweep', 'owner_change_balance');
      expect(shown).toMatchObject({
        caller: OPERATOR,
        args: "offset 32, length 96, 11 (what the call compared it with), holder, half the holder's balance",
      });
      expect(String(shown?.caller_source)).toMatch(/^compared with the caller by 0x[0-9a-f]{8}$/);
    },
    SCAN_TIMEOUT,
  );

  it(
    "the operator's burn: a leak",
    async () => {
      expect(await classes('burn')).toEqual({ mint: false, leak: true, limit: false });
      expect(await evidence('burn', 'owner_change_balance')).toMatchObject({
        caller: OPERATOR,
        args: "offset 32, length 96, 5 (what the call compared it with), holder, half the holder's balance",
      });
    },
    SCAN_TIMEOUT,
  );
});

describe('an honest command', () => {
  it("control: the operator's op 11 pays only out of its own balance", async () => {
    expect(await byOperator('honest', [command(11, suite.devnet.owner, 1n)])).toMatchObject({
      sent: [false],
    });
    expect(await byOperator('honest', [command(12, suite.devnet.owner, SUPPLY)])).toMatchObject({
      sent: [true],
      lost: 0n,
      minted: 0n,
    });
  });

  it(
    'an operator that pays from its own balance and records notes: no class',
    async () => {
      expect(await classes('honest')).toEqual({ mint: false, leak: false, limit: false });
    },
    SCAN_TIMEOUT,
  );
});
