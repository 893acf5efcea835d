import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Address, createPublicClient, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../core/catalog/index.ts';
import { chaindataDir, indexDevnet } from '../support/chaindata.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';

describe('catalog, data bus and data tools over the indexed devnet', () => {
  const { rpcUrl, scenario } = testStack();
  const rpc = createPublicClient({ transport: http(rpcUrl) });
  const clean = scenario.tokens.clean;
  let backend: TestBackend;
  let head: number;

  beforeAll(async () => {
    const root = await chaindataDir();
    head = await indexDevnet(root, rpcUrl);
    backend = await startTestBackend(isolatedEnv({ CHAINDATA_DIR: root, ANALYTICS_QUERY_TIMEOUT_MS: '800' }));
  }, 180_000);
  afterAll(async () => backend?.close());

  const get = async (url: string) => backend.app.inject({ method: 'GET', url });
  const tool = (name: string, payload: unknown, prefix = 'x402-tools') =>
    backend.app.inject({
      method: 'POST',
      url: `/api/v1/${prefix}/${name}`,
      headers: { 'x-client-id': `test-${randomUUID()}` },
      payload: payload as Record<string, unknown>,
    });

  it('reports platform data statistics computed from the index, the labels and the catalog', async () => {
    const response = await get('/api/v1/catalog/stats');
    expect(response.statusCode).toBe(200);
    const stats = response.json();
    const devnet = stats.chains.find((chain: { chain: string }) => chain.chain === 'devnet');
    expect(devnet.last_block).toBeGreaterThanOrEqual(head);
    expect(devnet.blocks).toBe(devnet.last_block + 1);
    expect(stats.rows.transfers).toBeGreaterThan(0);
    expect(stats.rows.deployments).toBeGreaterThanOrEqual(Object.keys(scenario.tokens).length);
    expect(stats.labels.total).toBeGreaterThan(17_000);
    expect(stats.tools.total_tools).toBe(TOOLS.length);
  });

  it("answers a token's catalog entry: deployer, pool, holders, first seen", async () => {
    const entry = (await get(`/api/v1/catalog/tokens/devnet/${clean.address}`)).json().data;
    expect(entry.deployer).toBe(scenario.deployers.clean?.toLowerCase());
    expect(entry.pools.map((pool: { pool: string }) => pool.pool)).toContain(clean.pair.toLowerCase());
    expect(entry.first_seen.via).toBe('deployment');
    expect(entry.holders_count).toBeGreaterThan(10);
  });

  it("answers a deployer's catalog entry with who funded it and what it deployed", async () => {
    const deployer = scenario.deployers.clean ?? '';
    const entry = (await get(`/api/v1/catalog/wallets/devnet/${deployer}`)).json().data;
    expect(entry.funded_by.address).toBe(scenario.deployer.toLowerCase());
    expect(entry.deployed.map((row: { contract_address: string }) => row.contract_address)).toContain(
      clean.address.toLowerCase(),
    );
  });

  it('finds labelled entities by name', async () => {
    const found = (await get('/api/v1/catalog/search?q=binance')).json().data;
    expect(found.hits.length).toBeGreaterThan(5);
    for (const hit of found.hits) expect(hit.name.toLowerCase()).toContain('binance');
  });

  it('pages through a token’s transfers with a cursor, every row once', async () => {
    const seen = new Set<string>();
    let url = `/api/v1/databus/tokens/devnet/${clean.address}/transfers?limit=7`;
    for (let page = 0; page < 100; page++) {
      const body = (await get(url)).json();
      expect(body.sources).toEqual(['index']);
      for (const row of body.data.rows) seen.add(`${row.tx_hash}:${row.log_index}`);
      if (!body.data.next_cursor) break;
      url = `/api/v1/databus/tokens/devnet/${clean.address}/transfers?limit=7&cursor=${body.data.next_cursor}`;
    }
    const logs = await rpc.getContractEvents({
      address: clean.address,
      abi: erc20Abi,
      eventName: 'Transfer',
      fromBlock: 0n,
      toBlock: BigInt(head),
    });
    expect(seen.size).toBe(logs.length);
  });

  it("ranks a token's holders with the balances the token itself reports", async () => {
    const body = (await get(`/api/v1/databus/tokens/devnet/${clean.address}/holders?limit=5`)).json();
    expect(body.data.holders.length).toBe(5);
    for (const holder of body.data.holders) {
      const onChain = await rpc.readContract({
        address: clean.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [holder.address as Address],
        blockNumber: BigInt(head),
      });
      expect(holder.balance_raw).toBe(onChain.toString());
    }
  });

  it('answers the empty-data result when nothing is found, and refuses bad input with a problem', async () => {
    const empty = await get(
      '/api/v1/databus/wallets/devnet/0x00000000000000000000000000000000000dead1/transfers',
    );
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ data: null, reason: 'no_data', sources_tried: ['index'] });
    const bad = await get('/api/v1/databus/tokens/devnet/not-an-address/transfers');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('bad_request');
    const cursor = await get(`/api/v1/databus/tokens/devnet/${clean.address}/transfers?cursor=forged`);
    expect(cursor.statusCode).toBe(400);
    const unknownChain = await get(`/api/v1/databus/tokens/bitcoin/${clean.address}/transfers`);
    expect(unknownChain.statusCode).toBe(400);
  });

  it('reports the data providers’ health', async () => {
    const health = (await get('/api/v1/databus/health')).json();
    expect(health.index.status).toBe('up');
    expect(health.index.chains.map((chain: { chain: string }) => chain.chain)).toContain('devnet');
  });

  it('runs the four data tools from the catalog, under x402-tools and x402-databus alike', async () => {
    const sql = await tool('analytics_query', {
      sql: `SELECT kind, count(*) AS n FROM transfers WHERE chain = 'devnet' GROUP BY kind ORDER BY kind`,
    });
    expect(sql.statusCode).toBe(200);
    const result = sql.json().data;
    expect(result.columns).toEqual([
      { name: 'kind', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ]);
    // The devnet's tokens, its native transfers, and the one ERC-721 of the corpus (the pass a
    // red-team token's recovery answers to, moved at launch).
    expect(result.rows.map((row: { kind: string }) => row.kind)).toEqual(['erc20', 'erc721', 'native']);
    expect(typeof result.elapsed_ms).toBe('number');
    const raw = await tool(
      'parquet_query',
      { dataset: 'swaps', chain: 'devnet', token: clean.address, limit: 3 },
      'x402-databus',
    );
    expect(raw.statusCode).toBe(200);
    expect(
      raw
        .json()
        .data.rows.every((row: { token0: string; token1: string }) =>
          [row.token0, row.token1].includes(clean.address.toLowerCase()),
        ),
    ).toBe(true);
    const labels = await tool('eth_labels_query', { category: 'exchange', name: 'kraken' });
    expect(
      labels.json().data.labels.every((label: { name_tag: string }) => /kraken/i.test(label.name_tag)),
    ).toBe(true);
    const stats = await tool('eth_labels_stats', {}, 'x402-databus');
    expect(stats.json().data.by_category.phish_hack).toBeGreaterThan(5_000);
  });

  it('binds every parquet_query and eth_labels_query field as data: injections, forged cursors and wildcards change nothing', async () => {
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const refused = [
      { dataset: 'transfers; DROP TABLE labels', chain: 'devnet' },
      { dataset: 'labels' },
      { dataset: 'transfers', chain: "devnet' OR '1'='1" },
      { dataset: 'transfers', address: "0x' OR 1=1 --" },
      { dataset: 'transfers', token: `${clean.address}'` },
      { dataset: 'transfers', from_time: "2020-01-01'; COPY labels TO '/tmp/x' --" },
      { dataset: 'transfers', limit: 1_000_000_000 },
      { dataset: 'transfers', limit: -1 },
      { dataset: 'transfers', sql: 'SELECT 1' },
      { dataset: 'transfers', cursor: cursorOf({ b: 0, i: 0, h: "0x' OR 1=1 --" }) },
      { dataset: 'transfers', cursor: cursorOf({ b: -1, i: 0, h: `0x${'0'.repeat(64)}` }) },
      { dataset: 'transfers', cursor: 'A'.repeat(20_000) },
      { dataset: 'pool_events', token: clean.address },
    ];
    for (const payload of refused) {
      const response = await tool('parquet_query', payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBeLessThan(500);
      expect(response.json().data).toBeUndefined();
    }
    // A cursor with extra fields is read for its position only; the filter still holds.
    const page = await tool('parquet_query', {
      dataset: 'transfers',
      chain: 'devnet',
      token: clean.address,
      limit: 3,
      cursor: cursorOf({ b: 0, i: -1, h: `0x${'0'.repeat(64)}`, sql: 'DROP TABLE labels' }),
    });
    expect(page.statusCode).toBe(200);
    for (const row of page.json().data.rows) expect(row.token).toBe(clean.address.toLowerCase());

    // eth_labels_query: wildcards and quotes in a name are matched literally.
    const all = await tool('eth_labels_query', { category: 'exchange', limit: 1_000 });
    expect(all.json().data.labels.length).toBeGreaterThan(100);
    for (const name of ['%', '_', '%%', "' OR 1=1 --", '\\', "kraken' OR name_tag ILIKE '%"]) {
      const response = await tool('eth_labels_query', { category: 'exchange', name, limit: 1_000 });
      expect(response.statusCode, name).toBeLessThan(500);
      const rows = (response.json().data?.labels ?? []) as { name_tag: string | null }[];
      expect(rows.length, name).toBeLessThan(all.json().data.labels.length);
      for (const row of rows) expect((row.name_tag ?? '').toLowerCase(), name).toContain(name.toLowerCase());
    }
    for (const payload of [
      { label: "exchange' OR '1'='1" },
      { category: "exchange') UNION SELECT * FROM read_csv('/etc/passwd') --" },
    ]) {
      const response = await tool('eth_labels_query', payload);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toBeNull();
    }
    for (const payload of [
      { chain: "ethereum' --", name: 'kraken' },
      { address: "0x'" },
      { name: 'x'.repeat(65) },
    ]) {
      const response = await tool('eth_labels_query', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });

  it('charts a token from its indexed swaps: candles, indicators, signals, SVG and PNG; the empty-data result without swaps', async () => {
    const base = `/api/v1/svccharts/devnet/${clean.address}`;
    const candles = (await get(`${base}/ohlcv?interval=1m`)).json().data;
    expect(candles.candles.length).toBeGreaterThan(0);
    for (const candle of candles.candles) {
      expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
      expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
    }
    expect((await get(`${base}/indicators?interval=1m`)).statusCode).toBe(200);
    expect((await get(`${base}/signals?interval=1m`)).statusCode).toBe(200);
    const svg = await get(`${base}/chart.svg?interval=1m&kind=price`);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const png = await get(`${base}/chart.png?interval=1m&kind=liquidity`);
    expect(png.headers['content-type']).toBe('image/png');
    const bytes = png.rawPayload;
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // IHDR: twice the SVG's width, and more than a blank image's bytes.
    expect(bytes.readUInt32BE(16)).toBeGreaterThanOrEqual(1_000);
    expect(bytes.length).toBeGreaterThan(5_000);
    const noSwaps = await get(
      '/api/v1/svccharts/devnet/0x00000000000000000000000000000000000dead1/chart.png',
    );
    expect(noSwaps.json()).toEqual({ data: null, reason: 'no_data', sources_tried: ['index'] });
    expect((await get(`${base}/chart.png?kind=pie`)).statusCode).toBe(400);
  });

  it('answers hostile SQL with 4xx problems through the API', async () => {
    const copy = await tool('analytics_query', { sql: "COPY labels TO '/tmp/out.csv'" });
    expect(copy.statusCode).toBe(400);
    expect(copy.json()).toMatchObject({ code: 'sql_rejected', reason: 'not_select' });
    const slow = await tool('analytics_query', {
      sql: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r',
    });
    expect(slow.statusCode).toBe(422);
    expect(slow.json()).toMatchObject({ code: 'query_failed', reason: 'timeout' });
    const invalid = await tool('analytics_query', { sql: 'SELECT 1', drop: true });
    expect(invalid.statusCode).toBe(422);
    expect((await tool('analytics_query', { sql: 'SELECT 42 AS answer' })).json().data.rows).toEqual([
      { answer: 42 },
    ]);
  });
});

describe('data bus failover', () => {
  const { rpcUrl, scenario } = testStack();
  let backend: TestBackend;
  afterAll(async () => backend?.close());

  it('reads a chain the index does not cover from its RPC, and names a failed index in X-Degraded-Stores', async () => {
    // The chain-data root is a file: the index cannot open, the bus falls back to live reads.
    const root = path.join(await chaindataDir(), 'not-a-folder');
    await writeFile(root, 'x');
    backend = await startTestBackend(
      isolatedEnv({ CHAINDATA_DIR: root, DATABUS_LIVE_WINDOW_BLOCKS: '100000' }),
    );
    const response = await backend.app.inject({
      method: 'GET',
      url: `/api/v1/databus/tokens/devnet/${scenario.tokens.clean.address}/transfers?limit=5`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-degraded-stores']).toBe('index');
    const body = response.json();
    expect(body.sources).toEqual(['rpc:devnet']);
    expect(body.data.rows).toHaveLength(5);
    expect(body.data.rows[0].token).toBe(scenario.tokens.clean.address.toLowerCase());
    void rpcUrl;
  });
});
