import { ApplicationFailure } from '@temporalio/common';
import type { PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { type Address, type Hex, getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PaymentReceipt } from '../../core/stores/receipts.ts';
import { REFUND_AUTHORIZATION_SECONDS, refundNonce, type SignedRefund } from '../../core/x402/refund.ts';

export interface AssetDomain {
  name: string;
  version: string;
}

/**
 * The refund of a payment as an EIP-3009 transferWithAuthorization from the payee back to the
 * payer, signed by the payee and settled by the facilitator's /refund (which pays the gas). Its
 * nonce is derived from the payment's transaction, so however often it is signed again (after an
 * expiry) or retried, the token lets it move the money at most once. Signed here with the
 * official package's EIP-712 types (@x402/evm `authorizationTypes`): its client draws a random
 * nonce, and a refund's must be its payment's. The receipt must come from the store, checked
 * (see checkRefundable), never from a workflow's input.
 */
export async function signRefund(parameters: {
  payeePrivateKey: Hex | undefined;
  receipt: PaymentReceipt;
  domain: AssetDomain;
  now?: number;
}): Promise<SignedRefund> {
  const { receipt, domain } = parameters;
  if (!parameters.payeePrivateKey) {
    throw ApplicationFailure.nonRetryable(
      'This deployment cannot send refunds: X402_PAYEE_PRIVATE_KEY is not set on the payments pool.',
      'refunds_not_configured',
    );
  }
  const payee = privateKeyToAccount(parameters.payeePrivateKey);
  if (getAddress(receipt.pay_to) !== payee.address) {
    throw ApplicationFailure.nonRetryable(
      `The payment went to ${receipt.pay_to}, not to the refund signer ${payee.address}.`,
      'refund_signer_mismatch',
    );
  }
  const chainId = Number(/^eip155:(\d+)$/.exec(receipt.network)?.[1] ?? Number.NaN);
  if (!Number.isSafeInteger(chainId)) {
    throw ApplicationFailure.nonRetryable(
      `Refunds on ${receipt.network} are not supported.`,
      'invalid_network',
    );
  }
  if (!receipt.transaction)
    throw ApplicationFailure.nonRetryable('The payment has no settlement transaction.', 'not_settled');
  const requirements: PaymentRequirements = {
    scheme: 'exact',
    network: receipt.network as PaymentRequirements['network'],
    amount: receipt.amount,
    asset: receipt.asset,
    payTo: receipt.payer,
    maxTimeoutSeconds: REFUND_AUTHORIZATION_SECONDS,
    extra: { name: domain.name, version: domain.version },
  };
  const authorization = {
    from: payee.address,
    to: getAddress(receipt.payer),
    value: receipt.amount,
    validAfter: '0',
    validBefore: String(Math.floor((parameters.now ?? Date.now()) / 1000) + REFUND_AUTHORIZATION_SECONDS),
    nonce: refundNonce(receipt.transaction),
  };
  const signature = await payee.signTypedData({
    domain: {
      name: domain.name,
      version: domain.version,
      chainId,
      verifyingContract: receipt.asset as Address,
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
  return {
    requirements,
    paymentPayload: { x402Version: 2, accepted: requirements, payload: { signature, authorization } },
    refundOf: receipt.transaction,
  };
}
