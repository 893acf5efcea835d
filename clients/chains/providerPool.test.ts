import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { freePort } from '../../infra/stack/processes.ts';
import { startSlowRpc } from '../../test/support/slowRpc.ts';
import { ChainClients } from './chainClients.ts';
import { isSimulation } from './providerPool.ts';
import type { ChainId } from '../../core/chains/registry.ts';

let healthy: AnvilInstance;
let wrongChain: AnvilInstance;
let dead: string;

beforeAll(async () => {
  [healthy, wrongChain] = await Promise.all([startAnvil(), startAnvil({ chainId: 1 })]);
  dead = `http://127.0.0.1:${await freePort()}/key/secret-key-123456789`;
});
afterAll(async () => {
  await Promise.all([healthy.stop(), wrongChain.stop()]);
});

const clients = (urls: string[], requestTimeoutMs = 2_000) =>
  new ChainClients({ rpcUrls: new Map<ChainId, string[]>([['devnet', urls]]), requestTimeoutMs });

describe('provider failover', () => {
  it('skips a dead provider for a healthy one, and names the dead one', async () => {
    const chains = clients([dead, healthy.url]);
    expect(await chains.evm('devnet').getChainId()).toBe(31337);
    expect(await chains.evm('devnet').getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(chains.degraded('devnet')).toEqual(['rpc:devnet:0']);
    const [first] = chains.providerStatus('devnet');
    expect(first).toMatchObject({ name: 'rpc:devnet:0', state: 'down' });
    expect(JSON.stringify(chains.providerStatus('devnet'))).not.toContain('secret-key-123456789');
  });

  it('drops a provider that serves another chain, checking it once', async () => {
    const chains = clients([wrongChain.url, healthy.url]);
    const client = chains.evm('devnet');
    expect(await client.getChainId()).toBe(31337);
    await client.getBlockNumber();
    expect(chains.degraded('devnet')).toEqual(['rpc:devnet:0']);
    expect(chains.providerStatus('devnet')[0]).toMatchObject({ state: 'wrong_chain' });
    expect(chains.providerStatus('devnet')[0]?.detail).toContain('expected chain id 31337');
  });

  it('skips a provider slower than the request timeout', async () => {
    const slow = await startSlowRpc(healthy.url, 1_500);
    try {
      const chains = clients([slow.url, healthy.url], 300);
      expect(await chains.evm('devnet').getBlockNumber()).toBeGreaterThanOrEqual(0n);
      expect(chains.providerStatus('devnet')[0]).toMatchObject({ state: 'slow' });
    } finally {
      await slow.close();
    }
  });

  it('fails as unreachable, naming every provider, when none answers', async () => {
    const chains = clients([dead]);
    await expect(chains.evm('devnet').getBlockNumber()).rejects.toThrow(/no RPC provider of devnet answered/);
  });
});

describe('a simulation’s own timeout', () => {
  it('waits longer for a call that runs code put in place than for a read', async () => {
    const slow = await startSlowRpc(healthy.url, 600);
    try {
      const chains = new ChainClients({
        rpcUrls: new Map<ChainId, string[]>([['devnet', [slow.url]]]),
        requestTimeoutMs: 300,
        simulationTimeoutMs: 3_000,
      });
      const client = chains.evm('devnet');
      await expect(client.getBlockNumber()).rejects.toThrow();
      // PUSH1 1 PUSH1 0 MSTORE PUSH1 1 PUSH1 31 RETURN: answers one byte, 0x01.
      const code = '0x60016000526001601ff3';
      const at = '0x00000000000000000000000000000000000c0de0';
      const { data } = await client.call({ to: at, data: '0x', stateOverride: [{ address: at, code }] });
      expect(data).toBe('0x01');
    } finally {
      await slow.close();
    }
  });

  it('tells a simulation from a read by its request', () => {
    const body = (method: string, params: unknown[]) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    expect(isSimulation(body('eth_call', [{ to: '0x01', data: '0x' }, 'latest']))).toBe(false);
    expect(isSimulation(body('eth_getBalance', ['0x01', 'latest']))).toBe(false);
    expect(isSimulation(body('eth_call', [{ to: '0x01' }, 'latest', { '0x01': { code: '0x60' } }]))).toBe(
      true,
    );
    expect(isSimulation(body('eth_simulateV1', [{ blockStateCalls: [] }, 'latest']))).toBe(true);
    expect(isSimulation(body('debug_traceCall', [{ to: '0x01' }, 'latest', {}]))).toBe(true);
    expect(isSimulation(undefined)).toBe(false);
  });
});
