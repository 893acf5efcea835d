import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { type Address, type Hex, getAddress, type NonceManager } from 'viem';
import type { ChainInfo } from '../../core/chains/registry.ts';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { StepTimings, timeStep, withTimings } from '../plugins/stepTimings.ts';
import { canonicalJson } from '../../core/x402/canonicalJson.ts';
import { authorizationKey } from '../../core/x402/proof.ts';
import { PaymentReason, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import { type FacilitatorWallet, tokenAbi, walletClient } from './chain.ts';
import { chainRefusal, type PrecheckLimits, staticRefusal } from './prechecks.ts';
import { localNonceManager } from './nonces.ts';
import { findSettlement } from './recovery.ts';
import { type FacilitatorRequest, parseFacilitatorRequest } from './requestSchema.ts';
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
  store: SettlementStore;
  confirmationTimeoutMs: number;
  maxAmount: bigint;
  maxTimeoutSeconds: number;
  minSignerBalanceWei: bigint;
  rpcTimeoutMs?: number;
  /** Receipt polling interval after broadcast (ms). */
  receiptPollMs?: number;
  /** How far back (blocks) a lost settlement is looked for in the token's AuthorizationUsed logs. */
  recoveryLookbackBlocks?: bigint;
}

/** A payload this process verified this recently is not read from the chain again when it settles. */
const VERIFIED_TTL_MS = 60_000;

/**
 * Per request: getCode answers, since the SDK asks for the payer's code twice per verification
 * (EIP-6492 classification, then the signature check).
 */
const requestCodes = new AsyncLocalStorage<Map<string, Promise<Hex | undefined>>>();

/**
 * An x402 facilitator for the `exact` scheme on one EVM chain. Signature, recipient, amount, time
 * window, simulation and settlement are the official @x402/evm ExactEvmScheme's; this class adds
 * what it lacks: `accepted` must match the requirements field by field, the asset and amount are
 * bounded, the nonce and balance are read (alongside the SDK's checks) so refusals carry the
 * precise reason, and settlement is idempotent per authorization (same answer every time, one
 * transaction, across replicas, recovered from the chain if its record was lost) with the
 * signer's transaction nonces counted locally so concurrent settles never collide.
 */
export class EvmFacilitator {
  readonly network: Network;
  readonly signer: Address;
  readonly assets: readonly FacilitatorAsset[];
  readonly #x402: x402Facilitator;
  readonly #wallet: FacilitatorWallet;
  readonly #options: EvmFacilitatorOptions;
  readonly #limits: PrecheckLimits;
  readonly #inflight = new Map<string, Promise<SettleResponse>>();
  /** Payload digest → when this process last verified it valid. */
  readonly #verified = new Map<string, number>();
  readonly #nonces: NonceManager;

  private constructor(
    options: EvmFacilitatorOptions,
    wallet: FacilitatorWallet,
    assets: FacilitatorAsset[],
    nonces: NonceManager,
  ) {
    this.#options = options;
    this.#nonces = nonces;
    this.#wallet = wallet;
    this.network = options.chain.caip2 as Network;
    this.signer = wallet.account.address;
    this.assets = assets;
    this.#limits = {
      network: this.network,
      assets,
      maxAmount: options.maxAmount,
      maxTimeoutSeconds: options.maxTimeoutSeconds,
    };
    const signer = toFacilitatorEvmSigner(
      {
        address: wallet.account.address,
        readContract: (args) => timeStep('sdk_read', () => wallet.readContract(args)),
        verifyTypedData: (args) => wallet.verifyTypedData(args as never),
        writeContract: (args) => timeStep('send', () => this.#send(() => wallet.writeContract(args))),
        sendTransaction: (args) =>
          timeStep('send', () => this.#send(() => wallet.sendTransaction(args as never))),
        waitForTransactionReceipt: (args) =>
          timeStep('receipt', () =>
            wallet.waitForTransactionReceipt({ ...args, pollingInterval: options.receiptPollMs ?? 200 }),
          ),
        getCode: (args) => timeStep('get_code', () => this.#getCode(args.address)),
      },
      { confirmationTimeoutMs: options.confirmationTimeoutMs },
    );
    this.#x402 = new x402Facilitator().register(
      this.network,
      new ExactEvmScheme(signer, { pendingSettlementStore: options.store.pending }),
    );
  }

  /** Connects, checks the RPC serves the configured chain, and reads each asset's EIP-712 domain. */
  static async create(options: EvmFacilitatorOptions): Promise<EvmFacilitator> {
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
        const [name, version, symbol, decimals] = await Promise.all([
          read<string>('name'),
          read<string>('version'),
          read<string>('symbol'),
          read<number>('decimals'),
        ]);
        return { network: options.chain.caip2 as Network, address, name, version, symbol, decimals };
      }),
    );
    return new EvmFacilitator(options, wallet, assets, nonces);
  }

  supported() {
    const sdk = this.#x402.getSupported();
    return {
      ...sdk,
      assets: this.assets.map((asset) => ({ ...asset, transfer_method: 'eip3009' as const })),
      limits: {
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

  /** Idempotent: the same authorization gets the same answer, and at most one transaction. */
  async settle(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    return withTimings(timings, () => requestCodes.run(new Map(), () => this.#settle(body)));
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
    if (sdk.isValid) this.#rememberVerified(payloadDigest(request));
    return sdk;
  }

  async #settle(body: unknown): Promise<SettleResponse> {
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
    const key = authorizationKey(
      request.requirements.network,
      request.requirements.asset,
      request.authorization.from,
      request.authorization.nonce,
    );
    const digest = payloadDigest(request);
    const inflightKey = `${key}:${digest}`;
    const running = this.#inflight.get(inflightKey);
    if (running) return running;
    const settling = this.#settleOnce(key, digest, request).finally(() => this.#inflight.delete(inflightKey));
    this.#inflight.set(inflightKey, settling);
    return settling;
  }

  async #settleOnce(key: string, digest: string, request: FacilitatorRequest): Promise<SettleResponse> {
    const { store, confirmationTimeoutMs } = this.#options;
    const token = randomUUID();
    const lockMs = confirmationTimeoutMs + 30_000;
    const claim = await timeStep('store', () => store.claim(key, digest, token, lockMs));
    if ('answer' in claim) return claim.answer;
    if (!claim.claimed) return this.#awaitOtherReplica(key, digest, request, lockMs);
    let final: SettleResponse | undefined;
    try {
      const result = await this.#settleLocked(request, digest);
      if (result.success || (result.errorReason && TERMINAL_SETTLE_REASONS.includes(result.errorReason)))
        final = result;
      return result;
    } finally {
      await timeStep('store', () => store.release(key, digest, token, final));
    }
  }

  async #settleLocked(request: FacilitatorRequest, digest: string): Promise<SettleResponse> {
    const { requirements, authorization } = request;
    const network = requirements.network;
    const failure = (reason: string, message?: string): SettleResponse => ({
      success: false,
      errorReason: reason,
      ...(message ? { errorMessage: message } : {}),
      transaction: '',
      network,
      payer: authorization.from,
    });
    const refused = staticRefusal(request, this.#limits);
    if (refused)
      return failure(refused.invalidReason ?? PaymentReason.unexpectedSettle, refused.invalidMessage);
    // Verified here moments ago: nonce and balance were read then, and the transaction's gas
    // estimate re-simulates the transfer before anything is sent.
    if (!this.#recentlyVerified(digest)) {
      const onChain = await timeStep('precheck', () => chainRefusal(this.#wallet, request));
      if (onChain) {
        if (onChain.invalidReason === PaymentReason.nonceUsed) return this.#recover(request, onChain);
        return failure(onChain.invalidReason ?? PaymentReason.unexpectedSettle, onChain.invalidMessage);
      }
    }
    let result: SettleResponse;
    try {
      result = await timeStep('sdk_settle', () => this.#x402.settle(request.payload, requirements));
    } catch (error) {
      return failure(PaymentReason.unexpectedSettle, scrub(error));
    }
    // Used between verify and settle: by this very authorization's lost settlement, or otherwise.
    if (!result.success && result.errorReason === PaymentReason.nonceUsed)
      return this.#recover(request, { isValid: false, invalidReason: PaymentReason.nonceUsed });
    return result;
  }

  /** The nonce is used: settled before with the answer lost, or spent elsewhere (refused). */
  async #recover(request: FacilitatorRequest, refused: VerifyResponse): Promise<SettleResponse> {
    const previous = await timeStep('recover', () =>
      findSettlement(this.#wallet, request, this.#options.recoveryLookbackBlocks ?? 10_000n),
    );
    if (previous) return previous;
    return {
      success: false,
      errorReason: refused.invalidReason ?? PaymentReason.nonceUsed,
      errorMessage: refused.invalidMessage ?? 'This authorization has already been used.',
      transaction: '',
      network: request.requirements.network,
      payer: request.authorization.from,
    };
  }

  /** Another replica holds the lock: wait for its answer rather than racing it. */
  async #awaitOtherReplica(
    key: string,
    digest: string,
    request: FacilitatorRequest,
    waitMs: number,
  ): Promise<SettleResponse> {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const result = await this.#options.store.result(key, digest);
      if (result) return result;
      if (!(await this.#options.store.isLocked(key))) return this.#settleOnce(key, digest, request);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return {
      success: false,
      errorReason: PaymentReason.settlementPending,
      errorMessage: 'Another settlement of this authorization is still in progress.',
      transaction: '',
      network: request.requirements.network,
      payer: request.authorization.from,
    };
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
    const codes = requestCodes.getStore();
    const key = address.toLowerCase();
    const known = codes?.get(key);
    if (known) return known;
    const code = this.#wallet.getCode({ address });
    codes?.set(key, code);
    return code;
  }

  /** Sends one transaction; on failure the locally counted nonce is re-read before the next. */
  async #send(send: () => Promise<Hex>): Promise<Hex> {
    try {
      return await send();
    } catch (error) {
      this.#nonces.reset({ address: this.signer, chainId: this.#options.chain.evmChainId ?? 0 });
      throw error;
    }
  }
}

/** What a payload is judged on: the requirements it answers and the signed authorization. */
function payloadDigest({ requirements, payload }: FacilitatorRequest): string {
  return createHash('sha256')
    .update(canonicalJson([requirements, payload.payload]))
    .digest('hex')
    .slice(0, 32);
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
  return message.replace(/\b(?:https?|wss?):\/\/[^\s"')]+/g, (url) => redactUrl(url)).slice(0, 300);
}
