import { AsyncLocalStorage } from 'node:async_hooks';
import { type Abi, type Address, concatHex, encodeFunctionData, type Hex, keccak256 } from 'viem';
import type { Eip3009Authorization } from '../../core/x402/proof.ts';
import type { FacilitatorWallet } from './chain.ts';
import type { SignerNonces } from './nonces.ts';

/** The settlement a transaction is being sent for: set around the SDK's settle, read by its write. */
export interface SendScope {
  asset: Address;
  authorization: Eip3009Authorization;
  /** Called with the transaction's hash after signing and before broadcast (the write-ahead record). */
  onSigned(hash: Hex): Promise<void>;
  /** Called when the chain did not receive it, so the record can be dropped. */
  onUnsent(hash: Hex): Promise<void>;
}

interface WriteArgs {
  address: Address;
  abi: readonly unknown[];
  functionName: string;
  args: readonly unknown[];
  dataSuffix?: Hex;
}

/**
 * How the facilitator's signer sends a settlement. viem's writeContract takes the nonce before it
 * estimates gas, so a transfer that cannot succeed would spend a nonce (and the count would have to
 * be re-read while others are in flight). Here the transaction is simulated first (its gas
 * estimate), a nonce is taken only once that passed, the signed transaction's hash is recorded
 * before broadcast, and a send the chain never received hands its nonce back. Only the transfer
 * of the authorization being settled can be sent: anything else is refused before signing.
 */
export class SettlementSender {
  readonly #wallet: FacilitatorWallet;
  readonly #nonces: SignerNonces;
  readonly #scope = new AsyncLocalStorage<SendScope>();

  constructor(wallet: FacilitatorWallet, nonces: SignerNonces) {
    this.#wallet = wallet;
    this.#nonces = nonces;
  }

  within<T>(scope: SendScope, run: () => Promise<T>): Promise<T> {
    return this.#scope.run(scope, run);
  }

  async writeContract(write: WriteArgs): Promise<Hex> {
    const scope = this.#scope.getStore();
    if (!scope) throw new Error('the facilitator only sends transfers of the authorization it is settling');
    assertSettles(write, scope);
    const wallet = this.#wallet;
    const account = wallet.account;
    const call = encodeFunctionData({
      abi: write.abi as Abi,
      functionName: write.functionName,
      args: write.args,
    });
    const data = write.dataSuffix ? concatHex([call, write.dataSuffix]) : call;
    // Gas and fees in one request (eth_fillTransaction, or estimateGas and the fee reads where the
    // node lacks it): the gas estimate is the simulation, so a transfer that would revert throws
    // here, before any nonce is taken (viem's writeContract takes the nonce first).
    const prepared = await wallet.prepareTransactionRequest({
      account,
      to: write.address,
      data,
      parameters: ['fees', 'gas', 'type'],
    });
    const chainId = wallet.chain.id;
    const nonce = await this.#nonces.consume({ address: account.address, chainId, client: wallet });
    const serialized = await account.signTransaction({
      ...feesOf(prepared),
      chainId,
      to: write.address,
      data,
      gas: prepared.gas,
      nonce,
    } as never);
    const hash = keccak256(serialized);
    try {
      await scope.onSigned(hash);
    } catch (error) {
      this.#nonces.release({ address: account.address, chainId }, nonce);
      throw error;
    }
    try {
      await wallet.sendRawTransaction({ serializedTransaction: serialized });
      return hash;
    } catch (error) {
      // The answer may be what was lost: a transaction the node has is sent.
      const received = await wallet.getTransaction({ hash }).then(
        () => true,
        () => false,
      );
      if (received) return hash;
      if (/nonce too low|already known|replacement/i.test(String(error))) {
        // The count is off (someone else used this key): read it from the chain again.
        this.#nonces.reset({ address: account.address, chainId });
      } else {
        this.#nonces.release({ address: account.address, chainId }, nonce);
      }
      await scope.onUnsent(hash).catch(() => undefined);
      throw error;
    }
  }
}

/** The SDK only ever writes `transferWithAuthorization` of the payload it settles; anything else is a bug or an attack. */
function assertSettles(write: WriteArgs, scope: SendScope): void {
  const [from, to, value, validAfter, validBefore, nonce] = write.args as [
    string,
    string,
    bigint,
    bigint,
    bigint,
    string,
  ];
  const { authorization } = scope;
  const same =
    write.functionName === 'transferWithAuthorization' &&
    write.address.toLowerCase() === scope.asset.toLowerCase() &&
    from.toLowerCase() === authorization.from.toLowerCase() &&
    to.toLowerCase() === authorization.to.toLowerCase() &&
    value === BigInt(authorization.value) &&
    validAfter === BigInt(authorization.validAfter) &&
    validBefore === BigInt(authorization.validBefore) &&
    nonce.toLowerCase() === authorization.nonce.toLowerCase();
  if (!same) throw new Error('refused to send a transaction other than the authorization being settled');
}

/** The fee fields of a prepared request, EIP-1559 or legacy, as the chain takes them. */
function feesOf(prepared: {
  type?: string;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  gasPrice?: bigint;
}) {
  return prepared.type === 'legacy' || prepared.maxFeePerGas === undefined
    ? { type: 'legacy' as const, gasPrice: prepared.gasPrice }
    : {
        type: 'eip1559' as const,
        maxFeePerGas: prepared.maxFeePerGas,
        maxPriorityFeePerGas: prepared.maxPriorityFeePerGas,
      };
}
