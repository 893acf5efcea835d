import {
  decodeTransactionFromPayload,
  getTokenPayerFromTransaction,
  transactionMessageHash,
} from '@x402/svm';

/** Solana networks are CAIP-2 `solana:<genesis hash prefix>`. */
/**
 * The named format of a Solana exact payload's `transaction` in documents: base64 of a signed
 * transaction (a pattern can only say base64; test/conformance/hooks.py generates real ones).
 */
export const SVM_TRANSACTION_FORMAT = 'solana-transaction';

export function isSolanaNetwork(network: string): boolean {
  return network.startsWith('solana:');
}

/**
 * What identifies a Solana exact payment: the hash of the transaction's message (the SDK's
 * settlement key; the message holds the transfer, its blockhash and a random memo, so each signed
 * payment has its own) and the transfer's authority, the payer. Throws when it does not decode.
 */
export function decodeSvmTransaction(transaction: string): { messageHash: string; payer: string } {
  const decoded = decodeTransactionFromPayload({ transaction });
  return { messageHash: transactionMessageHash(decoded), payer: getTokenPayerFromTransaction(decoded) };
}

/** The gateway's reservation key of a Solana payment: one per signed transaction. */
export function svmPaymentKey(network: string, asset: string, payer: string, messageHash: string): string {
  return `${network}:${asset}:${payer}:${messageHash}`;
}
