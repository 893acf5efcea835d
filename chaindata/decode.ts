import { Topic } from './events.ts';
import type { Creation, RawBlock, RawLog } from './rpcShapes.ts';
import { emptyRangeRows, type RangeRows, type Row } from './tables.ts';

const TWO_255 = 1n << 255n;
const TWO_256 = 1n << 256n;

/** Where the rows come from: the chain's slug and EVM id. */
export interface ChainRef {
  chain: string;
  chainId: number;
}

/**
 * Decodes one block range into table rows: blocks, native transfers and deployments from the
 * blocks, everything else from the logs. Hand-written word slicing rather than an ABI decoder:
 * it is the hot loop of the indexer (see bench/indexer.ts) and the layouts are fixed.
 * Logs of an unexpected shape (a Transfer with 2 topics, short data) are skipped, never guessed.
 */
export function decodeRange(
  ref: ChainRef,
  blocks: readonly RawBlock[],
  logs: readonly RawLog[],
  creations: readonly Creation[],
): RangeRows {
  const rows = emptyRangeRows();
  const times = new Map<number, number>();
  for (const block of blocks) {
    const number = Number(block.number);
    const time = Number(block.timestamp);
    times.set(number, time);
    const at = located(ref, number, time);
    rows.blocks.push({
      ...at,
      block_hash: block.hash.toLowerCase(),
      parent_hash: block.parentHash.toLowerCase(),
      tx_count: block.transactions.length,
    });
    for (const tx of block.transactions) {
      const value = BigInt(tx.value);
      if (value === 0n || !tx.to) continue;
      rows.transfers.push({
        ...at,
        tx_hash: tx.hash.toLowerCase(),
        log_index: null,
        tx_index: Number(tx.transactionIndex),
        kind: 'native',
        token: null,
        from_address: tx.from.toLowerCase(),
        to_address: tx.to.toLowerCase(),
        value_raw: value.toString(),
        value: Number(value),
        token_id: null,
      });
    }
  }
  for (const creation of creations) {
    const time = times.get(creation.blockNumber);
    if (time === undefined) continue;
    rows.deployments.push({
      ...located(ref, creation.blockNumber, time),
      tx_hash: creation.txHash.toLowerCase(),
      contract_address: creation.contract.toLowerCase(),
      deployer: creation.deployer.toLowerCase(),
      factory: creation.factory?.toLowerCase() ?? null,
      bytecode_hash: creation.bytecodeHash.toLowerCase(),
      code_size: creation.codeSize,
    });
  }
  for (const log of logs) {
    if (log.removed) continue;
    const number = Number(log.blockNumber);
    const time = times.get(number);
    if (time === undefined) continue;
    decodeLog(rows, log, located(ref, number, time));
  }
  return rows;
}

function located(ref: ChainRef, blockNumber: number, time: number): Row {
  return {
    chain: ref.chain,
    chain_id: ref.chainId,
    block_number: blockNumber,
    block_time: time,
    date: new Date(time * 1000).toISOString().slice(0, 10),
  };
}

function decodeLog(rows: RangeRows, log: RawLog, at: Row): void {
  const [topic0, t1, t2, t3] = log.topics;
  const base = {
    ...at,
    tx_hash: log.transactionHash.toLowerCase(),
    log_index: Number(log.logIndex),
  };
  const emitter = log.address.toLowerCase();
  const data = log.data;
  switch (topic0) {
    case Topic.transfer: {
      if (!t1 || !t2) return;
      if (log.topics.length === 3 && data.length === 66) {
        const value = uint(data, 0);
        rows.transfers.push({
          ...base,
          tx_index: Number(log.transactionIndex),
          kind: 'erc20',
          token: emitter,
          from_address: topicAddress(t1),
          to_address: topicAddress(t2),
          value_raw: value.toString(),
          value: Number(value),
          token_id: null,
        });
      } else if (t3 && log.topics.length === 4 && data.length === 2) {
        rows.transfers.push({
          ...base,
          tx_index: Number(log.transactionIndex),
          kind: 'erc721',
          token: emitter,
          from_address: topicAddress(t1),
          to_address: topicAddress(t2),
          value_raw: '1',
          value: 1,
          token_id: BigInt(t3).toString(),
        });
      }
      return;
    }
    case Topic.swapV2: {
      if (!t1 || !t2 || data.length !== 2 + 64 * 4) return;
      const amount0 = uint(data, 0) - uint(data, 2);
      const amount1 = uint(data, 1) - uint(data, 3);
      rows.swaps.push({
        ...base,
        pool: emitter,
        protocol: 'uniswap_v2',
        sender: topicAddress(t1),
        recipient: topicAddress(t2),
        ...amounts(amount0, amount1),
        sqrt_price_x96: null,
        liquidity: null,
        tick: null,
      });
      return;
    }
    case Topic.swapV3: {
      if (!t1 || !t2 || data.length !== 2 + 64 * 5) return;
      rows.swaps.push({
        ...base,
        pool: emitter,
        protocol: 'uniswap_v3',
        sender: topicAddress(t1),
        recipient: topicAddress(t2),
        ...amounts(int(data, 0), int(data, 1)),
        sqrt_price_x96: uint(data, 2).toString(),
        liquidity: uint(data, 3).toString(),
        tick: Number(int(data, 4)),
      });
      return;
    }
    case Topic.sync: {
      if (data.length !== 2 + 64 * 2) return;
      rows.pool_events.push({
        ...base,
        pool: emitter,
        kind: 'sync',
        sender: null,
        to_address: null,
        ...amounts(uint(data, 0), uint(data, 1)),
        ...V2_POSITION,
      });
      return;
    }
    case Topic.mintV2:
    case Topic.burnV2: {
      if (!t1 || data.length !== 2 + 64 * 2) return;
      const burn = topic0 === Topic.burnV2;
      rows.pool_events.push({
        ...base,
        pool: emitter,
        kind: burn ? 'burn' : 'mint',
        sender: topicAddress(t1),
        to_address: burn && t2 ? topicAddress(t2) : null,
        ...amounts(uint(data, 0), uint(data, 1)),
        ...V2_POSITION,
      });
      return;
    }
    // V3: owner and the tick range are indexed (topics 1-3); ticks are int24, sign-extended.
    case Topic.mintV3: {
      if (!t1 || !t2 || !t3 || data.length !== 2 + 64 * 4) return;
      rows.pool_events.push({
        ...base,
        pool: emitter,
        kind: 'mint',
        sender: wordAddress(data, 0),
        to_address: null,
        ...amounts(uint(data, 2), uint(data, 3)),
        ...v3Position(t1, t2, t3, uint(data, 1)),
      });
      return;
    }
    // Burn's first word is the liquidity removed, Collect's the recipient; then the two amounts.
    case Topic.burnV3:
    case Topic.collectV3: {
      if (!t1 || !t2 || !t3 || data.length !== 2 + 64 * 3) return;
      const collect = topic0 === Topic.collectV3;
      rows.pool_events.push({
        ...base,
        pool: emitter,
        kind: collect ? 'collect' : 'burn',
        sender: null,
        to_address: collect ? wordAddress(data, 0) : null,
        ...amounts(uint(data, 1), uint(data, 2)),
        ...v3Position(t1, t2, t3, collect ? null : uint(data, 0)),
      });
      return;
    }
    case Topic.pairCreated: {
      if (!t1 || !t2 || data.length !== 2 + 64 * 2) return;
      rows.pools.push({
        ...base,
        pool: wordAddress(data, 0),
        protocol: 'uniswap_v2',
        factory: emitter,
        token0: topicAddress(t1),
        token1: topicAddress(t2),
        fee: null,
        tick_spacing: null,
      });
      return;
    }
    case Topic.poolCreatedV3: {
      if (!t1 || !t2 || !t3 || data.length !== 2 + 64 * 2) return;
      rows.pools.push({
        ...base,
        pool: wordAddress(data, 1),
        protocol: 'uniswap_v3',
        factory: emitter,
        token0: topicAddress(t1),
        token1: topicAddress(t2),
        fee: Number(BigInt(t3)),
        tick_spacing: Number(int(data, 0)),
      });
      return;
    }
    default:
      return;
  }
}

const V2_POSITION: Row = {
  protocol: 'uniswap_v2',
  owner: null,
  tick_lower: null,
  tick_upper: null,
  liquidity: null,
};

function v3Position(owner: string, tickLower: string, tickUpper: string, liquidity: bigint | null): Row {
  return {
    protocol: 'uniswap_v3',
    owner: topicAddress(owner),
    tick_lower: Number(signed(BigInt(tickLower))),
    tick_upper: Number(signed(BigInt(tickUpper))),
    liquidity: liquidity === null ? null : liquidity.toString(),
  };
}

function amounts(amount0: bigint, amount1: bigint): Row {
  return {
    amount0_raw: amount0.toString(),
    amount1_raw: amount1.toString(),
    amount0: Number(amount0),
    amount1: Number(amount1),
  };
}

function word(data: string, index: number): string {
  return data.slice(2 + index * 64, 2 + (index + 1) * 64);
}

function uint(data: string, index: number): bigint {
  return BigInt(`0x${word(data, index)}`);
}

/** A two's-complement int256 word. */
function int(data: string, index: number): bigint {
  return signed(uint(data, index));
}

function signed(value: bigint): bigint {
  return value >= TWO_255 ? value - TWO_256 : value;
}

function topicAddress(topic: string): string {
  return `0x${topic.slice(26).toLowerCase()}`;
}

function wordAddress(data: string, index: number): string {
  return `0x${word(data, index).slice(24).toLowerCase()}`;
}
