import {
  type Address,
  getBase58Decoder,
  getBase58Encoder,
  getTransactionDecoder,
  type Signature,
} from '@solana/kit';
import {
  FailedTransactionMetadata,
  type LiteSVM,
  type SimulatedTransactionInfo,
  type TransactionMetadata,
} from 'litesvm';

/** TransactionErrorFieldless, in LiteSVM's order (the enum is declared, not exported, at runtime). */
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
] as const;

/** Base fee per signature, as on the clusters (LiteSVM charges the same). */
const LAMPORTS_PER_SIGNATURE = 5_000;

export class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * A transaction error as the cluster's JSON-RPC spells it: a name, or `{InstructionError: [index,
 * {Custom: code} | name]}`. Anything else keeps LiteSVM's own description.
 */
function rpcTransactionError(failed: FailedTransactionMetadata): unknown {
  const err: unknown = failed.err();
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError(${err})`;
  if (typeof err === 'object' && err !== null && 'index' in err && 'err' in err) {
    const inner: unknown = (err as { err(): unknown }).err();
    const index = Number((err as { index: number }).index);
    if (typeof inner === 'object' && inner !== null && 'code' in inner)
      return { InstructionError: [index, { Custom: Number((inner as { code: number }).code) }] };
    return { InstructionError: [index, String(inner)] };
  }
  if (typeof err === 'object' && err !== null && 'accountIndex' in err)
    return {
      InsufficientFundsForRent: { account_index: Number((err as { accountIndex: number }).accountIndex) },
    };
  return String(err);
}

function decodeWire(encoded: unknown, encoding: unknown) {
  if (typeof encoded !== 'string')
    throw new RpcFailure(-32602, 'Invalid params: transaction must be a string');
  const bytes = encoding === 'base64' ? Buffer.from(encoded, 'base64') : getBase58Encoder().encode(encoded);
  try {
    return getTransactionDecoder().decode(bytes);
  } catch {
    throw new RpcFailure(-32602, 'failed to deserialize transaction');
  }
}

/**
 * The transaction methods of the JSON-RPC front: simulate, send (executed by LiteSVM on the spot,
 * so a sent transaction is final at once), statuses and fees. Signature verification is LiteSVM's;
 * it is switched off only for a simulation that asks `sigVerify: false` (as the RPC allows),
 * never for a send.
 */
export function transactionMethods(
  svm: LiteSVM,
  context: () => { context: { slot: number; apiVersion: string } },
): Record<string, (params: unknown[]) => unknown> {
  const slotOf = new Map<string, number>();
  const slot = () => Number(svm.getClock().slot);
  const logsOf = (meta: TransactionMetadata) => meta.logs();
  return {
    simulateTransaction: ([encoded, config]) => {
      const options = (config ?? {}) as {
        encoding?: string;
        sigVerify?: boolean;
        replaceRecentBlockhash?: boolean;
      };
      const transaction = decodeWire(encoded, options.encoding ?? 'base58');
      const verify = options.sigVerify ?? false;
      svm.withSigverify(verify);
      let result: FailedTransactionMetadata | SimulatedTransactionInfo;
      try {
        result = svm.simulateTransaction(transaction);
      } finally {
        svm.withSigverify(true);
      }
      const meta = result.meta();
      return {
        ...context(),
        value: {
          err: result instanceof FailedTransactionMetadata ? rpcTransactionError(result) : null,
          logs: logsOf(meta),
          accounts: null,
          unitsConsumed: Number(meta.computeUnitsConsumed()),
          returnData: null,
          innerInstructions: null,
          replacementBlockhash: null,
        },
      };
    },
    sendTransaction: ([encoded, config]) => {
      const options = (config ?? {}) as { encoding?: string };
      const transaction = decodeWire(encoded, options.encoding ?? 'base58');
      const result = svm.sendTransaction(transaction);
      if (result instanceof FailedTransactionMetadata) {
        const err = rpcTransactionError(result);
        // As a cluster's preflight does: the transaction is refused and never lands.
        throw new RpcFailure(-32002, `Transaction simulation failed: ${JSON.stringify(err)}`, {
          err,
          logs: result.meta().logs(),
        });
      }
      const signature = getBase58Decoder().decode(result.signature());
      slotOf.set(signature, slot());
      // One slot per executed transaction, so statuses and blockhash ages move as on a cluster.
      svm.warpToSlot(BigInt(slot() + 1));
      return signature;
    },
    getSignatureStatuses: ([signatures]) => ({
      ...context(),
      value: (signatures as string[]).map((signature) => {
        const found = svm.getTransaction(signature as Signature);
        if (!found) return null;
        return {
          slot: slotOf.get(signature) ?? slot(),
          confirmations: null,
          err: found instanceof FailedTransactionMetadata ? rpcTransactionError(found) : null,
          confirmationStatus: 'finalized',
        };
      }),
    }),
    getTransaction: ([signature]) => {
      const found = svm.getTransaction(String(signature) as Signature);
      if (!found) return null;
      const failed = found instanceof FailedTransactionMetadata;
      const meta = failed ? found.meta() : found;
      return {
        slot: slotOf.get(String(signature)) ?? slot(),
        blockTime: null,
        meta: {
          err: failed ? rpcTransactionError(found) : null,
          logMessages: meta.logs(),
          computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
          innerInstructions: null,
        },
      };
    },
    getFeeForMessage: ([message]) => {
      const bytes = Buffer.from(String(message), 'base64');
      // The message header's first byte: how many signatures it requires.
      const signers = (bytes[0] ?? 0) & 0x80 ? (bytes[1] ?? 1) : (bytes[0] ?? 1);
      return { ...context(), value: signers * LAMPORTS_PER_SIGNATURE };
    },
    getTokenAccountBalance: ([address]) => {
      const account = svm.getAccount(String(address) as Address);
      if (!account.exists || account.data.length < 72)
        throw new RpcFailure(-32602, 'Invalid param: could not find account');
      const data = Buffer.from(account.data);
      const mint = svm.getAccount(getBase58Decoder().decode(data.subarray(0, 32)) as Address);
      const decimals = mint.exists ? (mint.data[44] ?? 0) : 0;
      const amount = data.readBigUInt64LE(64);
      return {
        ...context(),
        value: {
          amount: amount.toString(),
          decimals,
          uiAmount: Number(amount) / 10 ** decimals,
          uiAmountString: (Number(amount) / 10 ** decimals).toString(),
        },
      };
    },
    getBlockHeight: () => slot(),
  };
}
