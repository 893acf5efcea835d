import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  parseEventLogs,
  parseSignature,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { fiatTokenAbi, fundedDevAccount, type PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';
import { freePort, type ManagedProcess, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';
import { testStack } from './fixtures.ts';

/** The fields of an EIP-3009 authorization a payer signs by hand (any of them can be chosen). */
export interface AuthorizationFields {
  to: Address;
  value: bigint;
  nonce: Hex;
  validAfter?: bigint;
  validBefore?: bigint;
}

export const randomNonce = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/**
 * A payer's hand-signed EIP-3009 authorization as an x402 v2 payment payload answering
 * `requirements`: whatever fields the payer chooses, signed over the token's real EIP-712 domain,
 * as an attacker who holds the key would sign it.
 */
export async function signAuthorization(
  payerKey: Hex,
  token: PaymentTokenInfo,
  requirements: PaymentRequirements,
  fields: AuthorizationFields,
): Promise<PaymentPayload> {
  const payer = privateKeyToAccount(payerKey);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: payer.address,
    to: fields.to,
    value: fields.value.toString(),
    validAfter: (fields.validAfter ?? now - 600n).toString(),
    validBefore: (fields.validBefore ?? now + 240n).toString(),
    nonce: fields.nonce,
  };
  const signature = await payer.signTypedData({
    domain: {
      name: token.name,
      version: token.version,
      chainId: token.chainId,
      verifyingContract: token.address as Address,
    },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  return { x402Version: 2, accepted: requirements, payload: { signature, authorization } };
}

export const proofHeader = (payload: PaymentPayload) => encodePaymentSignatureHeader(payload);

/**
 * Submits a signed authorization straight to the token, paying the gas from a fresh account (as
 * anyone holding the signed payload can): what a payer does to spend a nonce behind our back.
 */
export async function submitOnChain(rpcUrl: string, token: PaymentTokenInfo, payload: PaymentPayload) {
  const { authorization, signature } = payload.payload as {
    authorization: Record<'from' | 'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>;
    signature: Hex;
  };
  const sender = await fundedDevAccount(rpcUrl);
  const wallet = createWalletClient({ account: sender.account, transport: http(rpcUrl) }).extend(
    publicActions,
  );
  const { r, s, v } = parseSignature(signature);
  const hash = await wallet.writeContract({
    address: token.address as Address,
    abi: fiatTokenAbi,
    functionName: 'transferWithAuthorization',
    args: [
      authorization.from,
      authorization.to,
      BigInt(authorization.value),
      BigInt(authorization.validAfter),
      BigInt(authorization.validBefore),
      authorization.nonce,
      Number(v),
      r,
      s,
    ],
    gas: 200_000n,
    chain: null,
  });
  const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (receipt.status !== 'success') throw new Error('the authorization did not execute');
  return hash;
}

/**
 * The payer cancels an authorization's nonce on chain (EIP-3009 cancelAuthorization), paying its
 * own gas; `tipGwei` outbids a settlement waiting in the same block.
 */
export async function cancelOnChain(
  rpcUrl: string,
  token: PaymentTokenInfo,
  payerKey: Hex,
  nonce: Hex,
  tipGwei?: bigint,
) {
  const payer = privateKeyToAccount(payerKey);
  const signature = await payer.signTypedData({
    domain: {
      name: token.name,
      version: token.version,
      chainId: token.chainId,
      verifyingContract: token.address as Address,
    },
    types: {
      CancelAuthorization: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'CancelAuthorization',
    message: { authorizer: payer.address, nonce },
  });
  const sender = await fundedDevAccount(rpcUrl);
  const wallet = createWalletClient({ account: sender.account, transport: http(rpcUrl) }).extend(
    publicActions,
  );
  return wallet.writeContract({
    address: token.address as Address,
    abi: fiatTokenAbi,
    functionName: 'cancelAuthorization',
    args: [payer.address, nonce, signature],
    gas: 200_000n,
    chain: null,
    ...(tipGwei === undefined
      ? {}
      : { maxPriorityFeePerGas: tipGwei * 10n ** 9n, maxFeePerGas: tipGwei * 2n * 10n ** 9n }),
  });
}

/** What moved between two addresses in a transaction, by the token's Transfer logs. */
async function transferredIn(rpcUrl: string, token: string, hash: Hex, from: string, to: string) {
  const receipt = await createDevnetClient(rpcUrl).getTransactionReceipt({ hash });
  if (receipt.status !== 'success') return 0n;
  const logs = parseEventLogs({
    abi: fiatTokenAbi,
    logs: receipt.logs,
    eventName: 'Transfer',
  }) as unknown as {
    address: string;
    args: { from: string; to: string; value: bigint };
  }[];
  return logs
    .filter(
      (log) =>
        log.address.toLowerCase() === token.toLowerCase() &&
        log.args.from.toLowerCase() === from.toLowerCase() &&
        log.args.to.toLowerCase() === to.toLowerCase(),
    )
    .reduce((sum, log) => sum + log.args.value, 0n);
}

/**
 * The backend as its own OS process (`api/backend/server.ts`), on a free port, with the test's
 * settings: two of these over the same Redis, Temporal and MongoDB are two API replicas.
 */
export async function startBackendProcess(
  env: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const stack = testStack();
  const child: ManagedProcess = await spawnService({
    name: 'backend',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'api', 'backend', 'server.ts')],
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: 'http://vigil.test',
      RPC_URLS_DEVNET: stack.rpcUrl,
      RPC_URLS_SOLANA_DEVNET: stack.solanaRpcUrl,
      TOKEN_ALLOWLIST_DEVNET: stack.scenario.allowlist.join(','),
    },
    readyTimeoutMs: 60_000,
    ready: async () => (await fetch(`http://127.0.0.1:${port}/ready`)).ok,
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.stop(10_000) };
}

/** A purchase Vigil answered as paid: what it cost and the transaction it named. */
export interface ServedPurchase {
  label: string;
  amount: bigint;
  transaction: string;
}

/**
 * The done condition of a paid answer: every purchase answered as paid names a transaction of its
 * own that moved exactly its price from the payer to the payee on chain. Answers what each moved.
 */
export async function movedByServed(
  rpcUrl: string,
  token: PaymentTokenInfo,
  payer: string,
  payee: string,
  served: readonly ServedPurchase[],
) {
  return Promise.all(
    served.map(async (purchase) => ({
      label: purchase.label,
      price: purchase.amount,
      moved: /^0x[0-9a-fA-F]{64}$/.test(purchase.transaction)
        ? await transferredIn(rpcUrl, token.address, purchase.transaction as Hex, payer, payee)
        : -1n,
    })),
  );
}
