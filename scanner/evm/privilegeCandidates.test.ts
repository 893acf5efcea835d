import { type Hex, type PublicClient, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  constructorArgumentsAt,
  holdsText,
  rangeCap,
  readCallerAccounts,
  traceWindows,
  writtenAddress,
} from './privilegeCandidates.ts';

const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

describe('reading a token’s calls from a trace index that caps its block range', () => {
  it('reads the cap a refusal names, and only from a refusal about the range', () => {
    // anvil 1.x's words, then others' shapes.
    expect(rangeCap('block range too large, currently limited to 300', 5_000n)).toBe(300n);
    expect(rangeCap('trace_filter block range exceeds max 100 blocks', 5_000n)).toBe(100n);
    expect(rangeCap('query exceeds max block range 2000', 100_000n)).toBe(2_000n);
    // A refusal that names no cap below the span: a guess, still smaller than the span.
    expect(rangeCap('block range too large', 5_000n)).toBe(100n);
    expect(rangeCap('block range too large', 60n)).toBe(30n);
    // Not about the range: no windows (the provider has no trace_filter, or failed).
    expect(rangeCap('the method trace_filter does not exist/is not available', 5_000n)).toBeUndefined();
    expect(rangeCap('request timed out after 5000 ms', 5_000n)).toBeUndefined();
  });

  it('covers the earliest blocks first, then the latest, within the budget and never twice', () => {
    const windows = traceWindows(1_000n, 4_000n, 300n, 7);
    expect(windows).toHaveLength(7);
    expect(windows[0]).toEqual([1_000n, 1_299n]);
    expect(windows.at(-1)).toEqual([3_701n, 4_000n]);
    const early = windows.filter(([from]) => from < 2_500n);
    expect(early).toHaveLength(5);
    for (const [index, [from, to]] of windows.entries()) {
      expect(to - from + 1n).toBeLessThanOrEqual(300n);
      if (index > 0) expect(from).toBeGreaterThan((windows[index - 1] as [bigint, bigint])[1]);
    }
    // A history the windows cover whole is read whole, with no gap and nothing twice.
    const whole = traceWindows(0n, 999n, 300n, 7);
    expect(whole.reduce((sum, [from, to]) => sum + (to - from + 1n), 0n)).toBe(1_000n);
    expect(whole).toHaveLength(4);
  });
});

describe('accounts the creation told the token about', () => {
  const token = '0x1111111111111111111111111111111111111111';
  const deployer = '0x2222222222222222222222222222222222222222';
  const word = (address: string): Hex => `0x${address.slice(2).padStart(64, '0')}`;
  // A log as a node returns it: the indexed accounts in the topics, the amount in the data.
  const transfer = (from: string, to: string, address = token) => ({
    address,
    topics: [TRANSFER, word(from), word(to)],
    data: word('0x01'),
  });
  const wallets = [1, 2, 3, 4, 5].map((at) => `0x${String(at).repeat(40)}`.toLowerCase());

  function client(logs: { address: string; topics: Hex[]; data: Hex }[]) {
    return {
      getTransaction: () => Promise.resolve({ input: '0x' }),
      getTransactionReceipt: () => Promise.resolve({ logs }),
      getCode: () => Promise.resolve(undefined),
      // No trace index: only the creation is read.
      request: () => Promise.reject(new Error('the method trace_filter does not exist')),
    } as unknown as PublicClient;
  }

  it('names the accounts the creation’s mints credited, apart from the other candidates, three at most', async () => {
    const read = await readCallerAccounts(
      client([
        transfer(zeroAddress, deployer),
        // Another token's mint in the same transaction, and a transfer that is no mint.
        transfer(zeroAddress, wallets[0] as string, '0x3333333333333333333333333333333333333333'),
        transfer(deployer, wallets[1] as string),
        transfer(zeroAddress, wallets[2] as string),
        transfer(zeroAddress, deployer),
        transfer(zeroAddress, wallets[3] as string),
        transfer(zeroAddress, wallets[4] as string),
      ]),
      {
        token,
        creation: { block: '1', tx: `0x${'ab'.repeat(32)}`, deployer, via: 'create_tx' },
        blockNumber: 10n,
      },
    );
    expect(read.minted.map((entry) => entry.address.toLowerCase())).toEqual([
      deployer,
      wallets[2],
      wallets[3],
    ]);
    expect(read.minted.every((entry) => entry.source === 'credited by a mint at creation')).toBe(true);
    expect(read.candidates).toEqual([]);
  });
});

describe('where a creation’s constructor arguments begin', () => {
  const token = '0x1111111111111111111111111111111111111111';
  const deployer = '0x2222222222222222222222222222222222222222';
  const distributor = '8a3c1e7b9d2f40615e8c7a9b3d1f2e4c6a8b0d2f';
  // Init code whose last words, before the runtime code, look like an address: twelve zero bytes,
  // then twenty of code (PUSH0 MSTORE PUSH1 0x11 …), as a real token's init code had.
  const initCode = `6080604052${'00'.repeat(12)}5f52601160045260245ffd5b5f610ff182610d47`;
  // The runtime code as the init code carries it (an immutable still zero), and as deployed (set);
  // its metadata last.
  const metadata = `a2646970667358221220${'7e'.repeat(32)}64736f6c634300081c0033`;
  // (96 bytes, so the init code's last word is a word of the input counted from its end.)
  const carried = `6080604052${'00'.repeat(38)}${metadata}`;
  const deployed = `6080604052${'00'.repeat(18)}${distributor}${metadata}`;
  const supply = (10n ** 27n).toString(16).padStart(64, '0');
  const args = `${'0'.repeat(24)}${distributor}${supply}`;
  const input: Hex = `0x${initCode}${carried}${args}`;

  it('begins after the runtime code’s copy, found by its metadata', () => {
    expect(constructorArgumentsAt(input, `0x${deployed}`)).toBe(input.length - args.length);
    // Without the runtime code, or with one the input does not hold: not known.
    expect(constructorArgumentsAt(input, undefined)).toBeUndefined();
    expect(constructorArgumentsAt(input, `0x${'ab'.repeat(40)}`)).toBeUndefined();
  });

  it('reads only the arguments where it is known, and the input’s last words where it is not', async () => {
    const read = (runtime: Hex | undefined) =>
      readCallerAccounts(
        {
          getTransaction: () => Promise.resolve({ input }),
          getTransactionReceipt: () => Promise.resolve({ logs: [] }),
          getCode: () => Promise.resolve(runtime),
          request: () => Promise.reject(new Error('the method trace_filter does not exist')),
        } as unknown as PublicClient,
        {
          token,
          creation: { block: '1', tx: `0x${'ab'.repeat(32)}`, deployer, via: 'create_tx' },
          blockNumber: 10n,
        },
      );
    const named = async (runtime: Hex | undefined) =>
      (await read(runtime)).candidates.map((entry) => entry.address.slice(2).toLowerCase());
    expect(await named(`0x${deployed}`)).toEqual([distributor]);
    // Without the runtime code the last twelve words are read: the code's word is taken too.
    expect(await named(undefined)).toEqual(['5f52601160045260245ffd5b5f610ff182610d47', distributor]);
  });
});

describe('an address found in code is not text', () => {
  const hex = (value: bigint): Hex => `0x${value.toString(16).padStart(40, '0')}`;
  const text = (message: string) => BigInt(`0x${Buffer.from(message).toString('hex')}`);

  it('turns down the bytes of a message, read from where they lie or shifted into place', () => {
    // A message in the data after the code, read as the operand of a PUSH20 (an "s" is one),
    // running into the metadata.
    expect(writtenAddress(hex(text(' allowance') * 2n ** 80n + 0xa2646970667358221220n))).toBe(false);
    // A constant the optimizer pushes without its trailing zero bits and shifts into place: the
    // text lies 1 to 7 bits off the bytes' edges.
    for (let bits = 1n; bits < 8n; bits++)
      expect(writtenAddress(hex((text('amount exceeds max.') * 2n ** 8n + 0x64n) >> bits))).toBe(false);
    // Digits and commas, half a byte off.
    expect(writtenAddress(hex(text('00,000 and 500,00') >> 4n))).toBe(false);
  });

  it('keeps real accounts: routers, factories and wallets', () => {
    for (const account of [
      '0x10ED43C718714eb63d5aA57B78B54704E256024E',
      '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
      '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D',
      '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    ] as const)
      expect(writtenAddress(account)).toBe(true);
  });

  it('turns down few of 20,000 random accounts', () => {
    let seed = 0x9e3779b97f4a7c15n;
    const next = () => {
      // xorshift64*, seeded: the same accounts every run.
      seed ^= seed >> 12n;
      seed ^= (seed << 25n) & 0xffffffffffffffffn;
      seed ^= seed >> 27n;
      return (seed * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn;
    };
    let text = 0;
    for (let index = 0; index < 20_000; index++) {
      const value = ((next() << 96n) | (next() << 32n) | (next() >> 32n)) & (2n ** 160n - 1n);
      if (holdsText(value)) text++;
    }
    expect(text).toBeLessThan(10);
  });
});
