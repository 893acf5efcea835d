import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { type Address, type Hex, getAddress } from 'viem';
import type { ChainInfo } from '../../core/chains/registry.ts';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { scrubText } from '../../core/errors/scrubError.ts';
import { StepTimings, timeStep, withTimings } from '../plugins/stepTimings.ts';
import { paymentDigest } from '../../core/x402/digest.ts';
import { PaymentReason, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import { type FacilitatorWallet, tokenAbi, walletClient } from './chain.ts';
import { refundRefusal } from './evmRefund.ts';
import { SettlementSender } from './evmSender.ts';
import { SettlementRecovery } from './evmRecovery.ts';
import { localNonceManager } from './nonces.ts';
import { chainRefusal, type PrecheckLimits, type SettlePurpose, staticRefusal } from './prechecks.ts';
import {
  authorizationKeyOf,
  failureOf,
  type FacilitatorRequest,
  parseFacilitatorRequest,
} from './requestSchema.ts';
import type { SettlementStore } from './settlementStore.ts';

/** Solana's exact scheme when it is not configured, as /supported states it (see docs/x402.md). */
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_NOT_OFFERED =
  'Not offered by this deployment: Solana settlement needs a Solana RPC, a fee-payer key and the accepted ' +
  'mints (FACILITATOR_SVM_RPC_URL, FACILITATOR_SVM_PRIVATE_KEY, FACILITATOR_SVM_ASSETS), and none are configured.';

export interface FacilitatorAsset {
  network: Network;
  address: Address;
  name: string;
  version: string;
  symbol: string;
  decimals: number;
}

export interface EvmFacilitatorOptions {
  chain: ChainInfo;
  rpcUrls: readonly string[];
  privateKey: Hex;
  assets: readonly string[];
  /** The only addresses payments may go to; refunds come from them. */
  payees: readonly string[];
  store: SettlementStore;
  confirmationTimeoutMs: number;
  /** The smallest payment (atomic): the cheapest price; nothing below it is a payment of ours. */
  minAmount: bigint;
  maxAmount: bigint;
  maxTimeoutSeconds: number;
  minSignerBalanceWei: bigint;
  rpcTimeoutMs?: number;
  /** Receipt polling interval after broadcast (ms). */
  receiptPollMs?: number;
  /** The most blocks a spent nonce's transaction is looked for in (see findUse). */
  recoveryLookbackBlocks?: bigint;
}

/** A payload this process verified this recently is not read from the chain again when it settles. */
const VERIFIED_TTL_MS = 60_000;

/** Allowed clock difference between the payer and the chain (as prechecks.ts allows it). */
const CLOCK_SKEW_SECONDS = 30;

/**
 * Per request: getCode answers, since the SDK asks for the payer's code twice per verification
 * (EIP-6492 classification, then the signature check).
 */
const requestCodes = new AsyncLocalStorage<Map<string, Promise<Hex | undefined>>>();

/**
 * An x402 facilitator for the `exact` scheme on one EVM chain, serving Vigil alone. Signature,
 * recipient, amount, time window and the receipt's transfer are the official @x402/evm
 * ExactEvmScheme's; this class adds what it lacks:
 * - policy: money goes only to the configured payees (refunds only from them, back to a payer of
 *   theirs), in accepted tokens named with their real EIP-712 domain, between the smallest price
 *   and the per-payment limit;
 * - exact binding: an answer belongs to the signed payload it was earned by (its digest), never
 *   to another sharing its nonce; a transaction counts only if it called transferWithAuthorization
 *   with exactly the payload's fields and signature and moved exactly the amount to the payee;
 * - idempotence: one settle of an authorization at a time across replicas, the transaction
 *   recorded before broadcast and resumed from that record, a spent nonce looked up on chain once;
 * - a signer nonce taken only after the transfer's simulation passed (SettlementSender).
 */
export class EvmFacilitator {
  readonly network: Network;
  readonly signer: Address;
  readonly assets: readonly FacilitatorAsset[];
  readonly #x402: x402Facilitator;
  readonly #wallet: FacilitatorWallet;
  readonly #options: EvmFacilitatorOptions;
  readonly #limits: PrecheckLimits;
  readonly #sender: SettlementSender;
  readonly #recovery: SettlementRecovery;
  readonly #inflight = new Map<string, Promise<SettleResponse>>();
  /** Payload digest → when this process last verified it valid. */
  readonly #verified = new Map<string, number>();
  /**
   * The accepted tokens' code, read at boot: the SDK checks the asset has code on every
   * verification in a promise it may abandon (an unhandled rejection when the RPC fails), so
   * it is answered from here.
   */
  readonly #assetCodes: ReadonlyMap<string, Hex>;

  private constructor(
    options: EvmFacilitatorOptions,
    wallet: FacilitatorWallet,
    assets: FacilitatorAsset[],
    sender: SettlementSender,
    assetCodes: ReadonlyMap<string, Hex>,
  ) {
    this.#assetCodes = assetCodes;
    this.#options = options;
    this.#wallet = wallet;
    this.#sender = sender;
    this.#recovery = new SettlementRecovery(wallet, options.store, {
      maxValiditySeconds: options.maxTimeoutSeconds + 2 * CLOCK_SKEW_SECONDS,
      lookbackBlocks: options.recoveryLookbackBlocks ?? 2_000n,
      confirmationTimeoutMs: options.confirmationTimeoutMs,
      receiptPollMs: options.receiptPollMs ?? 200,
    });
    this.network = options.chain.caip2 as Network;
    this.signer = wallet.account.address;
    this.assets = assets;
    this.#limits = {
      network: this.network,
      assets,
      payees: options.payees.map((payee) => getAddress(payee)),
      minAmount: options.minAmount,
      maxAmount: options.maxAmount,
      maxTimeoutSeconds: options.maxTimeoutSeconds,
    };
    const signer = toFacilitatorEvmSigner(
      {
        address: wallet.account.address,
        readContract: (args) => timeStep('sdk_read', () => wallet.readContract(args)),
        verifyTypedData: (args) => wallet.verifyTypedData(args as never),
        writeContract: (args) => timeStep('send', () => sender.writeContract(args)),
        // Only EIP-6492 wallet deployments use it, and no deployment factory is allowed here.
        sendTransaction: () => Promise.reject(new Error('this facilitator deploys no wallets')),
        waitForTransactionReceipt: (args) =>
          timeStep('receipt', () =>
            wallet.waitForTransactionReceipt({ ...args, pollingInterval: options.receiptPollMs ?? 200 }),
          ),
        getCode: (args) => timeStep('get_code', () => this.#getCode(args.address)),
      },
      { confirmationTimeoutMs: options.confirmationTimeoutMs },
    );
    // Pending transactions are resumed from this class's own record (by payload), not the SDK's
    // (by signature alone): its store is left empty.
    const noPending = {
      get: () => Promise.resolve(undefined),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    this.#x402 = new x402Facilitator().register(
      this.network,
      new ExactEvmScheme(signer, { pendingSettlementStore: noPending }),
    );
  }

  /** Connects, checks the RPC serves the configured chain, and reads each asset's EIP-712 domain. */
  static async create(options: EvmFacilitatorOptions): Promise<EvmFacilitator> {
    if (options.payees.length === 0) throw new Error('the facilitator needs at least one payee');
    const nonces = localNonceManager();
    const wallet = walletClient({ ...options, nonces });
    const chainId = await wallet.getChainId();
    if (chainId !== options.chain.evmChainId) {
      throw new Error(
        `RPC ${options.rpcUrls.map(redactUrl).join(', ')} serves chain ${chainId}, not ${options.chain.name} (${options.chain.evmChainId})`,
      );
    }
    const assets = await Promise.all(
      options.assets.map(async (raw) => {
        const address = getAddress(raw);
        const read = <T>(functionName: 'name' | 'version' | 'symbol' | 'decimals') =>
          wallet.readContract({ address, abi: tokenAbi, functionName }) as Promise<T>;
        const [name, version, symbol, decimals, code] = await Promise.all([
          read<string>('name'),
          read<string>('version'),
          read<string>('symbol'),
          read<number>('decimals'),
          wallet.getCode({ address }),
        ]);
        if (!code || code === '0x') throw new Error(`FACILITATOR_ASSETS: ${address} has no code`);
        return { network: options.chain.caip2 as Network, address, name, version, symbol, decimals, code };
      }),
    );
    return new EvmFacilitator(
      options,
      wallet,
      assets.map(({ code, ...asset }) => {
        void code;
        return asset;
      }),
      new SettlementSender(wallet, nonces),
      new Map(assets.map((asset) => [asset.address.toLowerCase(), asset.code])),
    );
  }

  supported() {
    const sdk = this.#x402.getSupported();
    return {
      ...sdk,
      assets: this.assets.map((asset) => ({ ...asset, transfer_method: 'eip3009' as const })),
      payees: this.#limits.payees,
      limits: {
        min_amount_per_payment: Object.fromEntries(
          this.assets.map((asset) => [asset.address, this.#options.minAmount.toString()]),
        ),
        max_amount_per_payment: Object.fromEntries(
          this.assets.map((asset) => [asset.address, this.#options.maxAmount.toString()]),
        ),
        max_timeout_seconds: this.#options.maxTimeoutSeconds,
      },
      unsupported: [{ x402Version: 2, scheme: 'exact', network: SOLANA_MAINNET, reason: SOLANA_NOT_OFFERED }],
    };
  }

  async verify(body: unknown, timings = new StepTimings()): Promise<VerifyResponse> {
    return withTimings(timings, () => requestCodes.run(new Map(), () => this.#verify(body)));
  }

  /** Idempotent: the same signed payload gets the same answer, and its authorization at most one transaction. */
  async settle(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    return withTimings(timings, () => requestCodes.run(new Map(), () => this.#settle(body, 'payment')));
  }

  /**
   * A refund: a payee's authorization sending a payment settled in `refundOf` back to its payer,
   * settled like a payment once the chain confirms it is exactly that (see evmRefund.ts).
   */
  async refund(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    return withTimings(timings, () => requestCodes.run(new Map(), () => this.#settle(body, 'refund')));
  }

  async health() {
    const started = performance.now();
    try {
      const [chainId, balance] = await Promise.all([
        this.#wallet.getChainId(),
        this.#wallet.getBalance({ address: this.signer }),
      ]);
      const funded = balance >= this.#options.minSignerBalanceWei;
      return {
        status:
          chainId === this.#options.chain.evmChainId && funded ? ('ok' as const) : ('degraded' as const),
        network: this.network,
        rpc: { reachable: true, chain_id: chainId, latency_ms: Math.round(performance.now() - started) },
        signer: { address: this.signer, balance_wei: balance.toString(), funded },
      };
    } catch (error) {
      return {
        status: 'down' as const,
        network: this.network,
        rpc: { reachable: false, chain_id: null, latency_ms: null, error: scrub(error) },
        signer: { address: this.signer, balance_wei: null, funded: false },
      };
    }
  }

  async #verify(body: unknown): Promise<VerifyResponse> {
    const parsed = parseFacilitatorRequest(body);
    if (!parsed.ok) return { isValid: false, invalidReason: parsed.reason, invalidMessage: parsed.message };
    const { request } = parsed;
    const refused = staticRefusal(request, this.#limits);
    if (refused) return refused;
    // Vigil's reads and the SDK's checks (signature, window, simulation) at once: the reads only
    // sharpen the reason of a refusal the simulation would also make.
    const [onChain, sdk] = await Promise.all([
      timeStep('precheck', () => chainRefusal(this.#wallet, request)),
      timeStep('sdk_verify', () => this.#x402.verify(request.payload, request.requirements)).catch(
        (error: unknown): VerifyResponse => ({
          isValid: false,
          invalidReason: PaymentReason.unexpectedVerify,
          invalidMessage: error instanceof Error ? error.message.slice(0, 200) : 'verification failed',
          payer: request.authorization.from,
        }),
      ),
    ]);
    if (onChain) return onChain;
    if (sdk.isValid) this.#rememberVerified(digestOf(request));
    return sdk;
  }

  async #settle(body: unknown, purpose: SettlePurpose): Promise<SettleResponse> {
    const parsed = parseFacilitatorRequest(body);
    if (!parsed.ok) {
      return {
        success: false,
        errorReason: parsed.reason,
        errorMessage: parsed.message,
        transaction: '',
        network: parsed.network as Network,
      };
    }
    const { request } = parsed;
    const failure = failureOf(request);
    const refused = staticRefusal(request, this.#limits, purpose);
    if (refused)
      return failure(refused.invalidReason ?? PaymentReason.unexpectedSettle, refused.invalidMessage);
    if (purpose === 'refund') {
      const refundOf = (body as { refundOf?: unknown }).refundOf;
      const notRefundable = await timeStep('precheck', () =>
        refundRefusal(this.#wallet, request, typeof refundOf === 'string' ? refundOf : ''),
      );
      if (notRefundable)
        return failure(
          notRefundable.invalidReason ?? PaymentReason.refundNotAllowed,
          notRefundable.invalidMessage,
        );
    }
    const digest = digestOf(request);
    const running = this.#inflight.get(digest);
    if (running) return running;
    const settling = this.#settleOnce(lockKeyOf(request), digest, request).finally(() =>
      this.#inflight.delete(digest),
    );
    this.#inflight.set(digest, settling);
    return settling;
  }

  async #settleOnce(lockKey: string, digest: string, request: FacilitatorRequest): Promise<SettleResponse> {
    const { store, confirmationTimeoutMs } = this.#options;
    const token = randomUUID();
    const lockMs = confirmationTimeoutMs + 30_000;
    const claim = await timeStep('store', () => store.claim(lockKey, digest, token, lockMs));
    if ('answer' in claim) return claim.answer;
    if (!claim.claimed) return this.#awaitOtherReplica(lockKey, digest, request, lockMs);
    let final: SettleResponse | undefined;
    try {
      const result = await this.#settleLocked(request, digest);
      if (result.success || (result.errorReason && TERMINAL_SETTLE_REASONS.includes(result.errorReason)))
        final = result;
      return result;
    } finally {
      await timeStep('store', () => store.release(lockKey, digest, token, final));
    }
  }

  async #settleLocked(request: FacilitatorRequest, digest: string): Promise<SettleResponse> {
    const { store } = this.#options;
    const failure = failureOf(request);
    // Sent before (the answer was lost, or it was still confirming): that transaction decides.
    const sent = await timeStep('store', () => store.sent(digest));
    if (sent) {
      const resumed = await timeStep('recover', () => this.#recovery.resume(sent as Hex, request, digest));
      if (resumed) return resumed;
    }
    // Verified here moments ago: nonce and balance were read then, and the transaction's
    // simulation runs again before anything is signed.
    if (!this.#recentlyVerified(digest)) {
      const onChain = await timeStep('precheck', () => chainRefusal(this.#wallet, request));
      if (onChain) {
        if (onChain.invalidReason === PaymentReason.nonceUsed) return this.#recovery.recover(request);
        return failure(onChain.invalidReason ?? PaymentReason.unexpectedSettle, onChain.invalidMessage);
      }
    }
    let result: SettleResponse;
    try {
      result = await this.#sender.within(
        {
          asset: getAddress(request.requirements.asset),
          authorization: request.authorization,
          onSigned: (hash) => store.recordSent(digest, hash),
          onUnsent: (hash) => store.forgetSent(digest, hash),
        },
        () => timeStep('sdk_settle', () => this.#x402.settle(request.payload, request.requirements)),
      );
    } catch (error) {
      return failure(PaymentReason.unexpectedSettle, scrub(error));
    }
    // Spent between verify and settle: by a transaction that was this very payload's, or not.
    if (!result.success && result.errorReason === PaymentReason.nonceUsed)
      return this.#recovery.recover(request);
    if (result.success) await this.#recovery.recordOwnUse(request, result.transaction as Hex);
    return result;
  }

  /** Another request holds the authorization's lock: wait for its answer rather than racing it. */
  async #awaitOtherReplica(
    lockKey: string,
    digest: string,
    request: FacilitatorRequest,
    waitMs: number,
  ): Promise<SettleResponse> {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const result = await this.#options.store.answer(digest);
      if (result) return result;
      if (!(await this.#options.store.isLocked(lockKey))) return this.#settleOnce(lockKey, digest, request);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return failureOf(request)(
      PaymentReason.settlementPending,
      'Another settlement of this authorization is still in progress.',
    );
  }

  #rememberVerified(digest: string): void {
    const now = Date.now();
    this.#verified.set(digest, now);
    // Bounded: forget the stale ones once the map grows.
    if (this.#verified.size > 10_000)
      for (const [entry, at] of this.#verified) if (now - at > VERIFIED_TTL_MS) this.#verified.delete(entry);
  }

  #recentlyVerified(digest: string): boolean {
    const at = this.#verified.get(digest);
    return at !== undefined && Date.now() - at < VERIFIED_TTL_MS;
  }

  #getCode(address: Address): Promise<Hex | undefined> {
    const key = address.toLowerCase();
    const asset = this.#assetCodes.get(key);
    if (asset) return Promise.resolve(asset);
    const codes = requestCodes.getStore();
    const known = codes?.get(key);
    if (known) return known;
    const code = this.#wallet.getCode({ address });
    codes?.set(key, code);
    return code;
  }
}

function digestOf({ payload, requirements }: FacilitatorRequest): string {
  return paymentDigest(payload, requirements);
}

/** One settle of an authorization at a time, whichever payload carries it. */
function lockKeyOf(request: FacilitatorRequest): string {
  return `evm:${authorizationKeyOf(request)}`;
}

/** A failure for a response or a log: viem's short message (its long one quotes request bodies), URLs redacted. */
function scrub(error: unknown): string {
  const short =
    typeof error === 'object' &&
    error !== null &&
    'shortMessage' in error &&
    typeof error.shortMessage === 'string'
      ? error.shortMessage
      : undefined;
  const message = short ?? (error instanceof Error ? error.message : String(error));
  return scrubText(message).slice(0, 300);
}
