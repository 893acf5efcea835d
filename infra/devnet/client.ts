import {
  type Address,
  type Hash,
  type Hex,
  type TransactionReceipt,
  createClient,
  http,
  numberToHex,
  publicActions,
  testActions,
} from 'viem';

/**
 * One client for the devnet: public reads, anvil's cheat methods, and raw requests of any method.
 * Its requests may take a minute: mining a hundred blocks on a devnet with a large state took
 * over viem's default 10 s on a loaded CI machine.
 */
export function createDevnetClient(rpcUrl: string, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}) {
  return createClient({ transport: http(rpcUrl, { retryCount: 0, timeout: timeoutMs }), pollingInterval: 10 })
    .extend(publicActions)
    .extend(testActions({ mode: 'anvil' }));
}

export type DevnetClient = ReturnType<typeof createDevnetClient>;

export interface DevTransaction {
  /** Names the transaction in errors. */
  label: string;
  to?: Address;
  data: Hex;
  value?: bigint;
}

// Explicit gas: a Uniswap pair costs more once block.timestamp has moved past its last update,
// so an estimate taken one second earlier can fall short when the block is mined.
const CALL_GAS = 5_000_000n;
const CREATE_GAS = 10_000_000n;

/**
 * Sends transactions from one of the node's unlocked dev accounts with nonces counted here, so
 * a whole sequence goes out without waiting for each to be mined; `settle` then checks them all.
 */
export class DevSender {
  readonly address: Address;
  private readonly client: DevnetClient;
  private nonce: number | undefined;
  private pending: { hash: Hash; label: string }[] = [];

  constructor(client: DevnetClient, address: Address) {
    this.client = client;
    this.address = address;
  }

  /** Sends one transaction and returns the nonce it used (a deployment's address follows from it). */
  async send(transaction: DevTransaction): Promise<number> {
    this.nonce ??= await this.client.getTransactionCount({ address: this.address, blockTag: 'pending' });
    const nonce = this.nonce;
    this.nonce += 1;
    const hash = await this.client.request({
      method: 'eth_sendTransaction',
      params: [
        {
          from: this.address,
          data: transaction.data,
          nonce: numberToHex(nonce),
          gas: numberToHex(transaction.to === undefined ? CREATE_GAS : CALL_GAS),
          ...(transaction.to === undefined ? {} : { to: transaction.to }),
          ...(transaction.value === undefined ? {} : { value: numberToHex(transaction.value) }),
        },
      ],
    });
    this.pending.push({ hash, label: transaction.label });
    return nonce;
  }

  /** Waits until everything sent so far is mined, and fails on the first reverted transaction. */
  async settle(): Promise<TransactionReceipt[]> {
    const sent = this.pending;
    this.pending = [];
    // With automine, a transaction is mined by the time eth_sendTransaction returns: read the
    // receipt directly, and only poll for one that is not there yet.
    const receipts = await Promise.all(
      sent.map(({ hash, label }) =>
        this.client.getTransactionReceipt({ hash }).catch(async () => {
          // With batched mining a transaction the node dropped (no funds, a stale nonce) is
          // nowhere: say so at once rather than wait for a receipt that never comes.
          const known = await this.client.getTransaction({ hash }).catch(() => undefined);
          if (known === undefined) throw new Error(`devnet transaction "${label}" (${hash}) was dropped`);
          return this.client.waitForTransactionReceipt({ hash, pollingInterval: 5, timeout: 30_000 });
        }),
      ),
    );
    const failed = receipts.findIndex((receipt) => receipt.status !== 'success');
    if (failed !== -1) {
      throw new Error(
        `devnet transaction "${sent[failed]?.label}" (${sent[failed]?.hash}) from ${this.address} reverted`,
      );
    }
    return receipts;
  }
}

// Room for a few hundred transactions of CALL_GAS each in one block.
const BATCH_BLOCK_GAS_LIMIT = 2_000_000_000n;
const MAX_BATCH_BLOCKS = 1_000;

/**
 * Runs `work` with automine off and a large block gas limit, so what it sends is mined a few
 * blocks at a time by `mineAll` instead of one block per transaction: each block costs anvil a
 * state-root computation, which dominates a scenario of thousands of transactions. Automine and
 * the gas limit are restored afterwards, whatever happens.
 */
export async function withBatchedMining<T>(client: DevnetClient, work: () => Promise<T>): Promise<T> {
  const { gasLimit } = await client.getBlock({ blockTag: 'latest' });
  await client.setAutomine(false);
  await client.setBlockGasLimit({ gasLimit: BATCH_BLOCK_GAS_LIMIT });
  try {
    return await work();
  } finally {
    await client.setBlockGasLimit({ gasLimit });
    await mineAll(client);
    await client.setAutomine(true);
  }
}

/** Mines until nothing is pending; a transaction stuck behind a nonce gap is an error. */
export async function mineAll(client: DevnetClient): Promise<void> {
  for (let blocks = 0; blocks < MAX_BATCH_BLOCKS; blocks++) {
    // viem's schema does not list txpool_status, which anvil answers.
    const status: { pending: Hex; queued: Hex } = await client.request({ method: 'txpool_status' } as never);
    if (Number(status.pending) === 0) {
      if (Number(status.queued) > 0) throw new Error(`${status.queued} transactions wait behind a nonce gap`);
      return;
    }
    await client.mine({ blocks: 1 });
  }
  throw new Error(`transactions still pending after ${MAX_BATCH_BLOCKS} blocks`);
}
