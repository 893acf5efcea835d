import { type Address, getAddress, type Hex, keccak256, slice, stringToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, type DevnetClient } from '../../infra/devnet/client.ts';
import { code, MEMORY_ARGS, OP, push20 } from '../../test/support/evmAssembly.ts';
import { readFixedModules } from './fixedModules.ts';

// Fixed code a contract delegates to, read on a node: code put at addresses of its own, each read
// at the node's latest block as a scan reads it at its pinned one.

const at = (label: string): Address => getAddress(slice(keccak256(stringToHex(`fm.${label}`)), 12));
const delegatingTo = (target: Address): Hex =>
  code(MEMORY_ARGS, push20(target.slice(2).toLowerCase()), OP.GAS, OP.DELEGATECALL, OP.STOP);

const PLAIN = code(OP.PUSH0, OP.SLOAD, OP.POP, OP.STOP);
const MODULES: Record<string, Hex> = {
  plain: PLAIN,
  // The same, with solc-style metadata (a CBOR map, its length last) whose bytes read as SSTORE,
  // CALL and SELFDESTRUCT: data no path runs.
  withMetadata: `${PLAIN}a155f1ff0004`,
  writes: code(OP.PUSH0, OP.PUSH0, OP.SSTORE, OP.STOP),
  reads: code(MEMORY_ARGS, OP.ADDRESS, OP.GAS, OP.STATICCALL, OP.STOP),
  destroys: code(OP.PUSH0, OP.SELFDESTRUCT),
  toPlain: delegatingTo(at('plain')),
  // A wallet delegated to the plain module (EIP-7702's designator).
  delegatedWallet: `0xef0100${at('plain').slice(2).toLowerCase()}`,
};

let anvil: AnvilInstance;
let client: DevnetClient;
let blockNumber: bigint;

beforeAll(async () => {
  anvil = await startAnvil();
  client = createDevnetClient(anvil.url);
  for (const [label, bytecode] of Object.entries(MODULES))
    await client.setCode({ address: at(label), bytecode });
  await client.mine({ blocks: 1 });
  blockNumber = await client.getBlockNumber();
}, 60_000);
afterAll(() => anvil.stop());

const read = (...labels: string[]) => readFixedModules(client, { targets: labels.map(at), blockNumber });

describe('readFixedModules', () => {
  it('takes pure computation as closed, whatever its metadata bytes read as', async () => {
    expect(await read('plain')).toEqual({ closed: true, modules: [at('plain')] });
    expect(await read('plain', 'withMetadata')).toEqual({
      closed: true,
      modules: [at('plain'), at('withMetadata')],
    });
  });

  it('refuses an address without code: whoever deploys there decides what runs', async () => {
    expect(await read('plain', 'nobody')).toMatchObject({
      closed: false,
      reason: `no code at ${at('nobody')}: whoever deploys there decides what runs`,
    });
  });

  it('refuses a wallet delegated to code: its key can point it at other code', async () => {
    expect(await read('delegatedWallet')).toMatchObject({
      closed: false,
      reason: expect.stringMatching(/EIP-7702/),
    });
  });

  it('refuses code that writes storage or can destroy itself', async () => {
    for (const label of ['writes', 'destroys'])
      expect(await read(label), label).toMatchObject({
        closed: false,
        reason: `${at(label)} is no pure computation: it writes storage or can destroy itself`,
      });
  });

  it('refuses code that calls another contract, delegates in its turn, or reads through a call', async () => {
    for (const label of ['reads', 'toPlain'])
      expect(await read(label), label).toMatchObject({
        closed: false,
        reason: `${at(label)} is no pure computation: it calls or creates other contracts`,
      });
  });

  it('reads eight modules at most, then refuses', async () => {
    const nine = Array.from({ length: 9 }, (_, index) => `extra${index}`);
    expect(await read(...nine)).toMatchObject({ closed: false, reason: 'more than 8 modules' });
  });
});
