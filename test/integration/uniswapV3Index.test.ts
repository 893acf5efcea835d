import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  keccak256,
  maxUint128,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsEngine } from '../../chaindata/analytics/engine.ts';
import { ensureLabelsFile } from '../../chaindata/labels/labelFile.ts';
import { ParquetWriter } from '../../chaindata/storage/parquetWriter.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient, DevSender } from '../../infra/devnet/client.ts';
import { compileContracts } from '../../infra/devnet/compile.ts';
import { deployUniswapV2 } from '../../infra/devnet/uniswap.ts';
import {
  deployUniswapV3,
  loadUniswapV3Artifacts,
  type UniswapV3Deployment,
} from '../../infra/devnet/uniswapV3.ts';
import { chaindataDir, indexDevnet } from '../support/chaindata.ts';

// Uniswap V3 as Uniswap built it (the npm build outputs: factory, pool, position manager, swap
// router) on a node of its own: a pool is created and priced, a position minted, a swap made,
// half the position burnt and its tokens collected. The indexer's hand-sliced rows are checked
// against viem's ABI decoding of the same logs with the pool's own ABI, and against the chain's
// state (the pool's address, slot0 and liquidity after the swap).
const FEE = 3000;
const TICK_LOWER = -600;
const TICK_UPPER = 600;
const Q96 = 2n ** 96n;

const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
]);

describe('Uniswap V3 in the index, from the real contracts', () => {
  let anvil: AnvilInstance;
  let root: string;
  let engine: AnalyticsEngine;
  let v3: UniswapV3Deployment;
  let pool: Address;
  let lp: Address;
  let trader: Address;
  let receipts: TransactionReceipt[];
  let afterSwap: { sqrtPriceX96: bigint; tick: number; liquidity: bigint };

  beforeAll(async () => {
    anvil = await startAnvil();
    const client = createDevnetClient(anvil.url);
    const accounts = await client.request({ method: 'eth_accounts' });
    lp = accounts[0] ?? '0x';
    trader = accounts[1] ?? '0x';
    const { weth } = await deployUniswapV2(client, { feeToSetter: lp });
    const sender = new DevSender(client, lp);
    v3 = await deployUniswapV3(sender, weth);
    const { positionManager, router } = v3;
    const artifacts = loadUniswapV3Artifacts();
    const { CleanToken } = await compileContracts();
    if (!CleanToken) throw new Error('CleanToken was not compiled');

    const tokens: Address[] = [];
    for (const symbol of ['AAA', 'BBB']) {
      const nonce = await sender.send({
        label: `token ${symbol}`,
        data: encodeDeployData({
          abi: CleanToken.abi,
          bytecode: CleanToken.bytecode,
          args: [symbol, symbol, parseEther('1000000')],
        }),
      });
      tokens.push(getContractAddress({ from: lp, nonce: BigInt(nonce) }));
    }
    const [token0, token1] = tokens.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) as [
      Address,
      Address,
    ];
    const call = (label: string, to: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
      sender.send({ label, to, data: encodeFunctionData({ abi, functionName, args }) });
    for (const token of [token0, token1])
      for (const spender of [positionManager, router])
        await call('approve', token, erc20Abi, 'approve', [spender, maxUint256]);
    await call(
      'create and price the pool',
      positionManager,
      artifacts.positionManager.abi,
      'createAndInitializePoolIfNecessary',
      [
        token0,
        token1,
        FEE,
        Q96, // price 1
      ],
    );
    await call('mint a position', positionManager, artifacts.positionManager.abi, 'mint', [
      {
        token0,
        token1,
        fee: FEE,
        tickLower: TICK_LOWER,
        tickUpper: TICK_UPPER,
        amount0Desired: parseEther('1000'),
        amount1Desired: parseEther('1000'),
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: lp,
        deadline: maxUint256,
      },
    ]);
    await call('swap token0 for token1', router, artifacts.router.abi, 'exactInputSingle', [
      {
        tokenIn: token0,
        tokenOut: token1,
        fee: FEE,
        recipient: trader,
        deadline: maxUint256,
        amountIn: parseEther('10'),
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ]);
    receipts = await sender.settle();
    pool = (await client.readContract({
      address: v3.factory,
      abi: artifacts.factory.abi,
      functionName: 'getPool',
      args: [token0, token1, FEE],
    })) as Address;
    const [slot0, liquidity] = await Promise.all([
      client.readContract({ address: pool, abi: poolAbi, functionName: 'slot0' }),
      client.readContract({ address: pool, abi: poolAbi, functionName: 'liquidity' }),
    ]);
    afterSwap = { sqrtPriceX96: slot0[0], tick: slot0[1], liquidity };

    // Half the position out, then everything owed collected to the LP.
    const [minted] = parseEventLogs({
      abi: artifacts.positionManager.abi,
      logs: receipts.flatMap((r) => r.logs),
      eventName: 'IncreaseLiquidity',
    }) as unknown as { args: { tokenId: bigint; liquidity: bigint } }[];
    if (!minted) throw new Error('no position was minted');
    await call('burn half', positionManager, artifacts.positionManager.abi, 'decreaseLiquidity', [
      {
        tokenId: minted.args.tokenId,
        liquidity: minted.args.liquidity / 2n,
        amount0Min: 0n,
        amount1Min: 0n,
        deadline: maxUint256,
      },
    ]);
    await call('collect', positionManager, artifacts.positionManager.abi, 'collect', [
      { tokenId: minted.args.tokenId, recipient: lp, amount0Max: maxUint128, amount1Max: maxUint128 },
    ]);
    receipts.push(...(await sender.settle()));

    root = await chaindataDir();
    await indexDevnet(root, anvil.url);
    await ensureLabelsFile(root, new ParquetWriter());
    engine = await AnalyticsEngine.open(root);
  }, 120_000);

  afterAll(async () => {
    engine?.close();
    await anvil?.stop();
  });

  const rows = async (sql: string) => (await engine.internal(sql, { pool: pool.toLowerCase() })).rows;

  it('records the pool the factory created, as a pool and as a factory deployment', async () => {
    expect(pool).not.toMatch(/^0x0{40}$/);
    expect(await rows(`SELECT protocol, factory, fee, tick_spacing FROM pools WHERE pool = $pool`)).toEqual([
      { protocol: 'uniswap_v3', factory: v3.factory.toLowerCase(), fee: FEE, tick_spacing: 60 },
    ]);
    const code = await createDevnetClient(anvil.url).getCode({ address: pool });
    expect(
      await rows(`SELECT factory, bytecode_hash FROM deployments WHERE contract_address = $pool`),
    ).toEqual([{ factory: v3.factory.toLowerCase(), bytecode_hash: keccak256(code ?? '0x') }]);
  });

  it('decodes every Mint, Burn, Collect and Swap as viem decodes them with the pool’s ABI', async () => {
    const { pool: poolArtifact } = loadUniswapV3Artifacts();
    const logs = receipts
      .flatMap((receipt) => receipt.logs)
      .filter((log) => log.address.toLowerCase() === pool.toLowerCase());
    const events = parseEventLogs({ abi: poolArtifact.abi, logs, strict: true }) as unknown as {
      eventName: string;
      logIndex: number;
      args: Record<string, bigint | number | string>;
    }[];
    const wanted = events.filter((event) => ['Mint', 'Burn', 'Collect'].includes(event.eventName));
    // The position manager's collect first pokes the position: a Burn of 0 liquidity that settles fees.
    expect(wanted.map((event) => event.eventName)).toEqual(['Mint', 'Burn', 'Burn', 'Collect']);
    const stored = await rows(
      `SELECT log_index, kind, protocol, sender, to_address, owner, tick_lower, tick_upper, liquidity, amount0_raw, amount1_raw
         FROM pool_events WHERE pool = $pool ORDER BY block_number, log_index`,
    );
    const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : null);
    expect(stored).toEqual(
      wanted.map(({ eventName, logIndex, args }) => ({
        log_index: logIndex,
        kind: eventName.toLowerCase(),
        protocol: 'uniswap_v3',
        sender: eventName === 'Mint' ? lower(args.sender) : null,
        to_address: eventName === 'Collect' ? lower(args.recipient) : null,
        owner: lower(args.owner),
        tick_lower: Number(args.tickLower),
        tick_upper: Number(args.tickUpper),
        liquidity: eventName === 'Collect' ? null : String(args.amount),
        amount0_raw: String(args.amount0),
        amount1_raw: String(args.amount1),
      })),
    );
    expect(stored[0]).toMatchObject({ owner: v3.positionManager.toLowerCase(), tick_lower: TICK_LOWER });
    expect(stored[2]).toMatchObject({ kind: 'burn', liquidity: '0' });
    expect(stored[3]).toMatchObject({ to_address: lp.toLowerCase() });

    const [swap] = events.filter((event) => event.eventName === 'Swap');
    if (!swap) throw new Error('the pool emitted no Swap');
    expect(
      await rows(
        `SELECT protocol, recipient, amount0_raw, amount1_raw, sqrt_price_x96, liquidity, tick FROM swaps WHERE pool = $pool`,
      ),
    ).toEqual([
      {
        protocol: 'uniswap_v3',
        recipient: trader.toLowerCase(),
        amount0_raw: String(swap.args.amount0),
        amount1_raw: String(swap.args.amount1),
        sqrt_price_x96: afterSwap.sqrtPriceX96.toString(),
        liquidity: afterSwap.liquidity.toString(),
        tick: afterSwap.tick,
      },
    ]);
    // Into the pool is positive: the trader paid token0 in and took token1 out.
    expect(BigInt(String(swap.args.amount0))).toBe(parseEther('10'));
    expect(BigInt(String(swap.args.amount1)) < 0n).toBe(true);
  });
});
