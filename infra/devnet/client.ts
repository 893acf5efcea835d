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

/** One client for the devnet: public reads, anvil's cheat methods, and raw requests of any method. */
export function createDevnetClient(rpcUrl: string) {
  return createClient({ transport: http(rpcUrl, { retryCount: 0 }), pollingInterval: 10 })
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
      sent.map(({ hash }) =>
        this.client
          .getTransactionReceipt({ hash })
          .catch(() => this.client.waitForTransactionReceipt({ hash, pollingInterval: 5, timeout: 30_000 })),
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
