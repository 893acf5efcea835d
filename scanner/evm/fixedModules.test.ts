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

const MODULES: Record<string, Hex> = {
  plain: code(OP.PUSH0, OP.SLOAD, OP.POP, OP.STOP),
  destroys: code(OP.PUSH0, OP.SELFDESTRUCT),
  stored: code(MEMORY_ARGS, OP.PUSH0, OP.SLOAD, OP.GAS, OP.DELEGATECALL, OP.STOP),
  toPlain: delegatingTo(at('plain')),
  toStored: delegatingTo(at('stored')),
  toDestroys: delegatingTo(at('destroys')),
  // A wallet delegated to the plain module (EIP-7702's designator).
  delegatedWallet: `0xef0100${at('plain').slice(2).toLowerCase()}`,
  chain1: delegatingTo(at('chain2')),
  chain2: delegatingTo(at('chain3')),
  chain3: delegatingTo(at('chain4')),
  chain4: delegatingTo(at('plain')),
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
  it('takes code with no way to change as closed, and a module that delegates only to such code', async () => {
    expect(await read('plain')).toEqual({ closed: true, modules: [at('plain')] });
    expect(await read('toPlain')).toEqual({ closed: true, modules: [at('toPlain'), at('plain')] });
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

  it('refuses code that can destroy itself, directly or as a module of a module', async () => {
    expect(await read('toDestroys')).toMatchObject({
      closed: false,
      reason: `${at('destroys')} can destroy itself (SELFDESTRUCT)`,
    });
    expect(await read('destroys')).toMatchObject({
      closed: false,
      reason: expect.stringMatching(/SELFDESTRUCT/),
    });
  });

  it('refuses a module that delegates to a target it reads from storage, however deep', async () => {
    expect(await read('stored')).toMatchObject({ closed: false, reason: expect.stringMatching(/not fixed/) });
    expect(await read('toStored')).toMatchObject({
      closed: false,
      modules: [at('toStored'), at('stored')],
    });
  });

  it('reads four modules at most, then refuses', async () => {
    expect(await read('chain2')).toMatchObject({ closed: true });
    expect(await read('chain1')).toEqual({
      closed: false,
      modules: [at('chain1'), at('chain2'), at('chain3'), at('chain4')],
      reason: 'more than 4 modules',
    });
  });
});
