import type { AddressInfo } from 'node:net';
import { type Address, encodeDeployData, getContractAddress, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenFingerprintStore } from '../../scanner/fingerprint/fingerprintStore.ts';
import { createDevnetClient, DevSender } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { UNISWAP_V2_ROUTER02 } from '../../infra/devnet/uniswap.ts';
import { indexToolCatalog } from '../../retrieval/catalog/toolCatalog.ts';
import type { RunningWorkers } from '../../workers/runWorkers.ts';
import {
  AUTHED,
  isolatedEnv,
  startTestBackend,
  startTestWorkers,
  testStack,
  type TestBackend,
} from '../support/fixtures.ts';
import { startTestRetrieval, tempIndexDir, type TestRetrieval } from '../support/retrievalFixtures.ts';

/** A dev account no other test sends from. */
const CLONER_INDEX = 9;

interface SimilarAnswer {
  data: {
    address: string;
    compared_with: number;
    tokens: {
      address: string;
      similarity: number;
      identical_code: boolean;
      near_clone: boolean;
      known_verdict: { tier: string; harmful: boolean; flags: string[] };
    }[];
  };
}

/** Deploys the honeypot's contract again under another name: a clone as scammers make them. */
async function deployHoneypotClone(rpcUrl: string): Promise<Address> {
  const client = createDevnetClient(rpcUrl);
  const [artifacts, accounts] = await Promise.all([
    compileContracts(),
    client.request({ method: 'eth_accounts' }),
  ]);
  const from = accounts[CLONER_INDEX];
  const artifact = artifacts.HoneypotToken;
  if (!from || !artifact) throw new Error('no dev account or artifact');
  const sender = new DevSender(client, from);
  const nonce = await sender.send({
    label: 'honeypot clone',
    data: encodeDeployData({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: ['Sweet Moon', 'SWEET', parseEther('5000000'), UNISWAP_V2_ROUTER02],
    }),
  });
  await sender.settle();
  return getContractAddress({ from, nonce: BigInt(nonce) });
}

describe('find_similar_tokens and query_catalog', () => {
  const { rpcUrl, scenario } = testStack();
  let retrieval: TestRetrieval;
  let backend: TestBackend;
  let workers: RunningWorkers;
  let fingerprints: TokenFingerprintStore;

  beforeAll(async () => {
    const env = isolatedEnv({ RETRIEVAL_INDEX_URI: await tempIndexDir(), RPC_URLS_DEVNET: rpcUrl });
    retrieval = await startTestRetrieval(env);
    await indexToolCatalog(retrieval.deps.store, retrieval.deps.embedder, retrieval.deps.chunkChars);
    await retrieval.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = retrieval.app.server.address() as AddressInfo;
    backend = await startTestBackend({ ...env, RETRIEVAL_URL: `http://127.0.0.1:${port}` });
    workers = await startTestWorkers(env);
    fingerprints = retrieval.deps.stores.fingerprints;
  });
  afterAll(async () => {
    await workers?.shutdown();
    await backend?.close();
    await retrieval?.close();
  });

  const tool = (name: string, body: Record<string, unknown>) =>
    backend.app.inject({
      method: 'POST',
      url: `/api/v1/x402-tools/${name}`,
      headers: { 'x-client-id': `similar-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` },
      payload: body,
    });

  it('stores a fingerprint with every EVM scan, and ranks a clone of a known honeypot first with its verdict', async () => {
    const { honeypot, clean } = scenario.tokens;
    for (const token of [honeypot, clean]) {
      const response = await backend.app.inject({
        method: 'POST',
        url: '/api/v2/scanner/scans',
        headers: AUTHED,
        payload: { chain: 'devnet', address: token.address, wait_ms: 30_000, fresh: true },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const recorded = await fingerprints.since(0, 100);
    const stored = recorded.find((record) => record.address.toLowerCase() === honeypot.address.toLowerCase());
    expect(stored?.verdict).toMatchObject({ tier: 'critical' });
    expect(stored?.verdict.flags).toContain('is_honeypot');
    expect(stored?.fingerprint.selectors.length).toBeGreaterThan(5);

    const clone = await deployHoneypotClone(rpcUrl);
    const response = await tool('find_similar_tokens', { chain: 'devnet', address: clone });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json<SimilarAnswer>();
    expect(data.compared_with).toBeGreaterThanOrEqual(2);
    const [first] = data.tokens;
    expect(first?.address.toLowerCase()).toBe(honeypot.address.toLowerCase());
    expect(first).toMatchObject({ similarity: 1, identical_code: true, near_clone: true });
    expect(first?.known_verdict).toMatchObject({ tier: 'critical', harmful: true });
    const cleanHit = data.tokens.find((token) => token.address.toLowerCase() === clean.address.toLowerCase());
    expect(cleanHit?.identical_code).toBe(false);
    expect(cleanHit?.similarity ?? 0).toBeLessThan(1);

    const sameChain = await tool('find_similar_tokens', {
      chain: 'devnet',
      address: clone,
      cross_chain: false,
      top_k: 1,
    });
    expect(sameChain.json<SimilarAnswer>().data.tokens.map((token) => token.address)).toEqual([
      first?.address,
    ]);
  });

  it('refuses an address without code and an invalid one with problems', async () => {
    const empty = await tool('find_similar_tokens', {
      chain: 'devnet',
      address: '0x000000000000000000000000000000000000dEaD',
    });
    expect(empty.statusCode, empty.body).toBe(422);
    expect(empty.json<{ code: string }>().code).toBe('address_not_contract');
    const invalid = await tool('find_similar_tokens', { chain: 'devnet', address: 'not-an-address' });
    expect(invalid.statusCode).toBe(422);
    const solana = await tool('find_similar_tokens', {
      chain: 'solana_devnet',
      address: scenario.tokens.clean.address,
    });
    expect(solana.statusCode).toBe(422);
  });

  it('answers query_catalog and the catalog RAG route with tools, schemas and prices', async () => {
    const response = await tool('query_catalog', {
      query: 'who deployed this token and did they rug before?',
    });
    expect(response.statusCode, response.body).toBe(200);
    const tools = response.json<{ data: { tools: { name: string; price_usd: number }[] } }>().data.tools;
    expect(tools[0]?.name).toBe('deployer_reputation');
    const rag = await backend.app.inject({
      method: 'GET',
      url: '/api/v1/catalog/tools/search?q=tokens+with+similar+code&top_k=2',
    });
    expect(rag.statusCode, rag.body).toBe(200);
    expect(rag.json<{ tools: { name: string }[] }>().tools[0]?.name).toBe('find_similar_tokens');
  });
});
