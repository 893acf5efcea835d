import { fileURLToPath } from 'node:url';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getChain } from '../../core/chains/registry.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender, type DevnetClient } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { deployArtifacts, type Deployed } from '../../test/support/deployArtifacts.ts';
import { Severity } from '../core/schema.ts';
import { readScanConfig } from '../config.ts';
import { contractSafety } from '../engines/contractSafety.ts';
import { readTimelock } from './readTimelock.ts';
import { readUpgradeAuthority } from './readUpgradeAuthority.ts';

// A proxy whose upgrades wait two days in OpenZeppelin's TimelockController weighs `low`; one whose
// "timelock" lets its deployer skip the wait, in any of the ways below, is upgradeable at once and
// weighs in full (a view that says two days is no wait).

const TWO_DAYS = 2n * 86_400n;

let node: AnvilInstance;
let client: DevnetClient;
let sender: DevSender;
let deployer: Address;
let bystander: Address;
/** Each timelock by contract name, and a token it owns. */
const timelocks: Record<string, Address> = {};
const tokens: Record<string, Deployed> = {};
/** A proxy whose ProxyAdmin each timelock owns, by the timelock's name. */
const proxies: Record<string, Deployed> = {};

beforeAll(async () => {
  node = await startAnvil();
  client = createDevnetClient(node.url);
  const [first, second] = await client.request({ method: 'eth_accounts' });
  if (!first || !second) throw new Error('the node has fewer than two accounts');
  [deployer, bystander] = [first, second];
  sender = new DevSender(client, deployer);
  const artifacts = await compileContracts({
    sourceDir: fileURLToPath(new URL('./testContracts/', import.meta.url)),
  });
  const deploy = deployArtifacts(sender, artifacts);
  const roles = [[deployer], [deployer]];
  timelocks.TlGenuine = (await deploy('TlGenuine', [TWO_DAYS, ...roles])).address;
  timelocks.TlShortDelay = (await deploy('TlGenuine', [3_600n, ...roles])).address;
  for (const name of ['TlAdminDelay', 'TlAdminExecute', 'TlScheduledIsReady', 'TlExtraFunction'])
    timelocks[name] = (await deploy(name, roles)).address;
  const logic = await deploy('TlMintToken', [deployer]);
  tokens.TlGenuine = logic;
  // OpenZeppelin 5.7's proxy refuses to be made without a first call: a read of the supply.
  for (const name of ['TlGenuine', 'TlAdminExecute'])
    proxies[name] = await deploy('TlProxy', [logic.address, timelocks[name], '0x18160ddd']);
}, 120_000);
afterAll(() => node.stop());

const verdict = async (name: string) =>
  readTimelock(client, {
    account: timelocks[name] as Address,
    token: tokens.TlGenuine?.address as Address,
    callers: [bystander, deployer],
    blockNumber: await client.getBlockNumber(),
  });

describe('readTimelock', () => {
  it("takes OpenZeppelin's TimelockController with a two-day delay", async () => {
    expect(await verdict('TlGenuine')).toEqual({
      kind: 'timelock',
      address: timelocks.TlGenuine,
      delaySeconds: Number(TWO_DAYS),
    });
  });

  it('refuses one whose delay is under a day', async () => {
    expect(await verdict('TlShortDelay')).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('under a day'),
    });
  });

  it('refuses a look-alike whose deployer may set the delay at once', async () => {
    expect(await verdict('TlAdminDelay')).toMatchObject({
      kind: 'not',
      reason: `updateDelay(0) worked at once for ${deployer.toLowerCase()}`,
    });
  });

  it('refuses a look-alike whose deployer executes what was never scheduled', async () => {
    expect(await verdict('TlAdminExecute')).toMatchObject({
      kind: 'not',
      reason: `execute of a call never scheduled worked at once for ${deployer.toLowerCase()}`,
    });
  });

  it('refuses a look-alike whose deployer executes a batch as soon as it is scheduled', async () => {
    expect(await verdict('TlScheduledIsReady')).toMatchObject({
      kind: 'not',
      reason: `executeBatch of calls scheduled a moment before worked at once for ${deployer.toLowerCase()}`,
    });
  });

  it('refuses a look-alike with one function more', async () => {
    expect(await verdict('TlExtraFunction')).toMatchObject({
      kind: 'not',
      reason: expect.stringContaining('functions a TimelockController does not have'),
    });
  });

  it('refuses an account without code', async () => {
    expect(
      await readTimelock(client, {
        account: bystander,
        token: tokens.TlGenuine?.address as Address,
        callers: [deployer],
        blockNumber: await client.getBlockNumber(),
      }),
    ).toMatchObject({ kind: 'not', reason: 'an account without code' });
  });
});

describe("a proxy's upgrade authority", () => {
  const authority = async (name: string) =>
    readUpgradeAuthority(client, {
      token: tokens.TlGenuine?.address as Address,
      proxy: { kind: 'eip1967', admin: timelocks[name] as Address, slot: '0x00' },
      owner: undefined,
      callers: [deployer],
      blockNumber: await client.getBlockNumber(),
    });

  it('is a timelock when the admin holds its wait', async () => {
    expect(await authority('TlGenuine')).toMatchObject({ kind: 'timelock', delaySeconds: Number(TWO_DAYS) });
  });

  it('is the look-alike itself, upgrading at once, when its deployer may skip the wait', async () => {
    expect(await authority('TlAdminDelay')).toMatchObject({
      kind: 'account',
      address: timelocks.TlAdminDelay,
      path: ['EIP-1967 admin', expect.stringContaining('updateDelay(0) worked at once')],
    });
  });

  it('keeps a short delay a short timelock (weighed as one that gives no notice)', async () => {
    expect(await authority('TlShortDelay')).toMatchObject({ kind: 'timelock', delaySeconds: 3_600 });
  });
});

describe('a proxy whose ProxyAdmin a timelock owns, scanned', () => {
  const scan = async (name: string) => {
    const proxy = proxies[name];
    if (!proxy) throw new Error(`no proxy owned by ${name}`);
    return contractSafety({
      client,
      chain: getChain('devnet'),
      address: proxy.address,
      blockNumber: await client.getBlockNumber(),
      creation: { block: proxy.block.toString(), tx: proxy.tx, deployer, via: 'create_tx' },
      config: readScanConfig({}),
    });
  };

  it('weighs low when every upgrade waits two days', async () => {
    const output = await scan('TlGenuine');
    expect(output.checks.find((check) => check.id === 'is_proxy')).toMatchObject({
      status: 'fail',
      severity: Severity.low,
      value: `timelock ${TWO_DAYS}s`,
    });
    expect(output.facts.upgrade).toMatchObject({ kind: 'timelock', authority: timelocks.TlGenuine });
  });

  it('weighs in full when the deployer may skip the wait', async () => {
    const output = await scan('TlAdminExecute');
    expect(output.checks.find((check) => check.id === 'is_proxy')).toMatchObject({
      status: 'fail',
      severity: Severity.medium,
      value: timelocks.TlAdminExecute,
    });
    expect(output.facts.upgrade).toMatchObject({ kind: 'account', authority: timelocks.TlAdminExecute });
  });
});
