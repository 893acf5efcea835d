/**
 * The indexed chain data's tables, declared once: the Parquet files are written from these
 * columns, the analytics views read them, and docs/data.md lists them (a test checks it).
 * Addresses and hashes are lowercase 0x hex; uint256 amounts keep their exact decimal string
 * (`*_raw`) beside a DOUBLE for arithmetic (a uint256 does not fit any exact Parquet number).
 */
export const SCHEMA_VERSION = 1;

/** The DuckDB types Vigil writes; each maps to one Parquet physical type. */
export const ColumnType = {
  varchar: 'VARCHAR',
  bigint: 'BIGINT',
  integer: 'INTEGER',
  double: 'DOUBLE',
  timestamp: 'TIMESTAMP',
  date: 'DATE',
} as const;
export type ColumnType = (typeof ColumnType)[keyof typeof ColumnType];

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable?: boolean;
  readonly doc: string;
}

const c = (name: string, type: ColumnType, doc: string, nullable = false): Column => ({
  name,
  type,
  doc,
  nullable,
});

/** Every row carries where it is: the chain slug, its EVM id, the block and its time. */
const located = [
  c('chain', ColumnType.varchar, 'chain slug from the registry (ethereum, base, devnet, ...)'),
  c('chain_id', ColumnType.integer, 'EVM chain id'),
  c('block_number', ColumnType.bigint, 'block the row was found in'),
  c('block_time', ColumnType.timestamp, 'block timestamp (UTC)'),
];
const fromLog = [
  c('tx_hash', ColumnType.varchar, 'transaction hash'),
  c('log_index', ColumnType.integer, 'position of the log in its block'),
];
/** The partition column: the UTC date of the block. */
const dated = [c('date', ColumnType.date, 'UTC date of block_time (the partition)')];

export const TABLES = {
  blocks: {
    doc: 'Every indexed block: its hash (reorgs are detected against it) and its time.',
    columns: [
      ...located,
      c('block_hash', ColumnType.varchar, 'block hash'),
      c('parent_hash', ColumnType.varchar, 'parent block hash'),
      c('tx_count', ColumnType.integer, 'transactions in the block'),
      ...dated,
    ],
  },
  transfers: {
    doc: 'ERC-20 and ERC-721 Transfer logs and top-level native transfers (transactions with value).',
    columns: [
      ...located,
      c('tx_hash', ColumnType.varchar, 'transaction hash'),
      c('log_index', ColumnType.integer, 'position of the log in its block; NULL for native transfers', true),
      c('tx_index', ColumnType.integer, 'position of the transaction in its block'),
      c('kind', ColumnType.varchar, "'erc20', 'erc721' or 'native'"),
      c('token', ColumnType.varchar, 'token contract; NULL for native transfers', true),
      c('from_address', ColumnType.varchar, 'sender'),
      c('to_address', ColumnType.varchar, 'recipient (the zero address for burns)'),
      c('value_raw', ColumnType.varchar, 'exact amount in base units (1 for an ERC-721)'),
      c('value', ColumnType.double, 'value_raw as a DOUBLE (not divided by decimals)'),
      c('token_id', ColumnType.varchar, 'ERC-721 token id', true),
      ...dated,
    ],
  },
  swaps: {
    doc: 'Uniswap V2 and V3 Swap logs. Amounts are signed from the pool: positive = into the pool.',
    columns: [
      ...located,
      ...fromLog,
      c('pool', ColumnType.varchar, 'the pair or pool contract'),
      c('protocol', ColumnType.varchar, "'uniswap_v2' or 'uniswap_v3'"),
      c('sender', ColumnType.varchar, 'the caller (usually a router)'),
      c('recipient', ColumnType.varchar, 'who received the output (V2 `to`, V3 `recipient`)'),
      c('amount0_raw', ColumnType.varchar, 'token0 delta of the pool, exact, signed'),
      c('amount1_raw', ColumnType.varchar, 'token1 delta of the pool, exact, signed'),
      c('amount0', ColumnType.double, 'amount0_raw as a DOUBLE'),
      c('amount1', ColumnType.double, 'amount1_raw as a DOUBLE'),
      c('sqrt_price_x96', ColumnType.varchar, 'V3 price after the swap', true),
      c('liquidity', ColumnType.varchar, 'V3 in-range liquidity after the swap', true),
      c('tick', ColumnType.integer, 'V3 tick after the swap', true),
      ...dated,
    ],
  },
  pool_events: {
    doc:
      'Uniswap V2 Sync (reserves after every change), Mint and Burn; V3 Mint, Burn and Collect ' +
      '(liquidity added to and removed from a tick range, fees and tokens taken out).',
    columns: [
      ...located,
      ...fromLog,
      c('pool', ColumnType.varchar, 'the pair or pool contract'),
      c('kind', ColumnType.varchar, "'sync', 'mint', 'burn' or 'collect' (V3 only)"),
      c('sender', ColumnType.varchar, 'Mint sender, V2 Burn sender; NULL for Sync and V3 Burn/Collect', true),
      c('to_address', ColumnType.varchar, 'V2 Burn and V3 Collect recipient', true),
      c('amount0_raw', ColumnType.varchar, 'Sync: reserve0; otherwise the token0 amount'),
      c('amount1_raw', ColumnType.varchar, 'Sync: reserve1; otherwise the token1 amount'),
      c('amount0', ColumnType.double, 'amount0_raw as a DOUBLE'),
      c('amount1', ColumnType.double, 'amount1_raw as a DOUBLE'),
      // Added after schema 1's first files (nullable, read by name): NULL in files written before.
      c('protocol', ColumnType.varchar, "'uniswap_v2' or 'uniswap_v3'", true),
      c('owner', ColumnType.varchar, 'V3: the position owner (a position manager for most LPs)', true),
      c('tick_lower', ColumnType.integer, 'V3: the position range lower tick', true),
      c('tick_upper', ColumnType.integer, 'V3: the position range upper tick', true),
      c('liquidity', ColumnType.varchar, 'V3 Mint/Burn: the liquidity added or removed', true),
      ...dated,
    ],
  },
  pools: {
    doc: 'Pools created by Uniswap V2 factories (PairCreated) and V3 factories (PoolCreated).',
    columns: [
      ...located,
      ...fromLog,
      c('pool', ColumnType.varchar, 'the new pair or pool'),
      c('protocol', ColumnType.varchar, "'uniswap_v2' or 'uniswap_v3'"),
      c('factory', ColumnType.varchar, 'the factory that emitted the creation'),
      c('token0', ColumnType.varchar, 'token0'),
      c('token1', ColumnType.varchar, 'token1'),
      c('fee', ColumnType.integer, 'V3 fee in hundredths of a bip', true),
      c('tick_spacing', ColumnType.integer, 'V3 tick spacing', true),
      ...dated,
    ],
  },
  deployments: {
    doc: 'Contracts created by a transaction (tx.to empty) or, where the node has traces, by another contract.',
    columns: [
      ...located,
      c('tx_hash', ColumnType.varchar, 'the creating transaction'),
      c('contract_address', ColumnType.varchar, 'the new contract'),
      c('deployer', ColumnType.varchar, 'the account that sent the creating transaction'),
      c(
        'factory',
        ColumnType.varchar,
        'the contract that created it (trace creations); NULL for top level',
        true,
      ),
      c('bytecode_hash', ColumnType.varchar, 'keccak256 of the runtime bytecode at the creation block'),
      c('code_size', ColumnType.integer, 'runtime bytecode length in bytes'),
      ...dated,
    ],
  },
} as const satisfies Record<string, { doc: string; columns: readonly Column[] }>;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** A row as the writer takes it: column name → JS value (string, number, bigint, Date or null). */
export type Row = Record<string, string | number | bigint | null>;

/** The rows one block range produced, by table. */
export type RangeRows = Record<TableName, Row[]>;

export function emptyRangeRows(): RangeRows {
  return Object.fromEntries(TABLE_NAMES.map((name) => [name, []])) as unknown as RangeRows;
}
