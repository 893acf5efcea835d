import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import {
  type Address,
  type Chain,
  type Hex,
  createWalletClient,
  defineChain,
  fallback,
  getAddress,
  http,
  nonceManager,
  parseAbi,
  parseEventLogs,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainInfo } from '../../core/chains/registry.ts';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { countStep, StepTimings, timeStep, withTimings } from '../../core/timing/stepTimings.ts';
import { authorizationKey } from '../../core/x402/proof.ts';
import { PaymentReason, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import { type FacilitatorRequest, parseFacilitatorRequest } from './requestSchema.ts';
import type { SettlementStore } from './settlementStore.ts';

const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** Solana's exact scheme, as /supported states it (see docs/x402.md). */
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_NOT_OFFERED =
  'Not offered by this deployment: @x402/svm can settle it, but it needs a Solana RPC and a fee-payer key, ' +
  'and there is no local Solana validator to test settlement on, so Vigil does not claim it.';

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
}

/** Allowed clock difference between the payer and the chain. */
const CLOCK_SKEW_SECONDS = 30n;

/**
 * An x402 facilitator for the `exact` scheme on one EVM chain. Signature, recipient, amount, time
 * window, simulation and settlement are the official @x402/evm ExactEvmScheme's; this class adds
 * what it lacks: `accepted` must match the requirements field by field, the asset and amount are
 * bounded, the nonce and balance are read first so refusals carry the precise reason, and
 * settlement is idempotent per authorization (same answer every time, one transaction, across
 * replicas) with the signer's transaction nonces counted locally so concurrent settles never
 * collide.
 */
export class EvmFacilitator {
  readonly network: Network;
  readonly signer: Address;
  readonly assets: readonly FacilitatorAsset[];
  readonly #x402: x402Facilitator;
  readonly #wallet: ReturnType<typeof walletClient>;
  readonly #options: EvmFacilitatorOptions;
  readonly #inflight = new Map<string, Promise<SettleResponse>>();

  private constructor(
    options: EvmFacilitatorOptions,
    wallet: ReturnType<typeof walletClient>,
    assets: FacilitatorAsset[],
  ) {
    this.#options = options;
    this.#wallet = wallet;
    this.network = options.chain.caip2 as Network;
    this.signer = wallet.account.address;
    this.assets = assets;
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
        getCode: (args) => timeStep('get_code', () => wallet.getCode(args)),
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
    const wallet = walletClient(options);
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
    return new EvmFacilitator(options, wallet, assets);
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
    return withTimings(timings, () => this.#verify(body));
  }

  async #verify(body: unknown): Promise<VerifyResponse> {
    const parsed = parseFacilitatorRequest(body);
    if (!parsed.ok) return { isValid: false, invalidReason: parsed.reason, invalidMessage: parsed.message };
    const { request } = parsed;
    const refused = await timeStep('precheck', () => this.#precheck(request));
    if (refused) return refused;
    try {
      return await timeStep('sdk_verify', () => this.#x402.verify(request.payload, request.requirements));
    } catch (error) {
      return {
        isValid: false,
        invalidReason: PaymentReason.unexpectedVerify,
        invalidMessage: error instanceof Error ? error.message.slice(0, 200) : 'verification failed',
        payer: request.authorization.from,
      };
    }
  }

  /** Idempotent: the same authorization gets the same answer, and at most one transaction. */
  async settle(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    return withTimings(timings, () => this.#settle(body));
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
    const running = this.#inflight.get(key);
    if (running) return running;
    const settling = this.#settleOnce(key, request).finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, settling);
    return settling;
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

  async #settleOnce(key: string, request: FacilitatorRequest): Promise<SettleResponse> {
    const { store, confirmationTimeoutMs } = this.#options;
    const known = await timeStep('store', () => store.result(key));
    if (known) return known;
    const token = randomUUID();
    const lockMs = confirmationTimeoutMs + 30_000;
    if (!(await timeStep('store', () => store.lock(key, token, lockMs))))
      return this.#awaitOtherReplica(key, request, lockMs);
    try {
      const again = await timeStep('store', () => store.result(key));
      if (again) return again;
      const result = await this.#settleLocked(request);
      if (result.success || (result.errorReason && TERMINAL_SETTLE_REASONS.includes(result.errorReason))) {
        await timeStep('store', () => store.saveResult(key, result));
      }
      return result;
    } finally {
      await timeStep('store', () => store.unlock(key, token));
    }
  }

  async #settleLocked(request: FacilitatorRequest): Promise<SettleResponse> {
    const { requirements, authorization } = request;
    const network = requirements.network;
    const refused = await timeStep('precheck', () => this.#precheck(request));
    if (refused) {
      if (refused.invalidReason === PaymentReason.nonceUsed) {
        // Settled before but the answer was lost (a crash between broadcast and storing it):
        // the chain still knows which transaction used the authorization.
        const previous = await this.#findSettlement(request);
        if (previous) return previous;
      }
      return {
        success: false,
        errorReason: refused.invalidReason ?? PaymentReason.unexpectedSettle,
        ...(refused.invalidMessage ? { errorMessage: refused.invalidMessage } : {}),
        transaction: '',
        network,
        payer: authorization.from,
      };
    }
    try {
      return await timeStep('sdk_settle', () => this.#x402.settle(request.payload, requirements));
    } catch (error) {
      return {
        success: false,
        errorReason: PaymentReason.unexpectedSettle,
        errorMessage: scrub(error),
        transaction: '',
        network,
        payer: authorization.from,
      };
    }
  }

  /** Another replica holds the lock: wait for its answer rather than racing it. */
  async #awaitOtherReplica(
    key: string,
    request: FacilitatorRequest,
    waitMs: number,
  ): Promise<SettleResponse> {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const result = await this.#options.store.result(key);
      if (result) return result;
      if (!(await this.#options.store.isLocked(key))) return this.#settleOnce(key, request);
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

  /** Vigil's checks before the SDK's, each with its own reason. */
  async #precheck({
    payload,
    requirements,
    authorization,
  }: FacilitatorRequest): Promise<VerifyResponse | undefined> {
    const payer = authorization.from;
    const refuse = (invalidReason: string, invalidMessage: string): VerifyResponse => ({
      isValid: false,
      invalidReason,
      invalidMessage,
      payer,
    });
    if (requirements.scheme !== 'exact' || payload.accepted.scheme !== 'exact') {
      return refuse(PaymentReason.unsupportedScheme, 'Only the exact scheme is settled here.');
    }
    if (requirements.network !== this.network) {
      return refuse(PaymentReason.invalidNetwork, `This facilitator settles on ${this.network} only.`);
    }
    const asset = this.assets.find(
      (entry) => entry.address.toLowerCase() === requirements.asset.toLowerCase(),
    );
    if (!asset)
      return refuse(PaymentReason.unsupportedAsset, `${requirements.asset} is not an accepted asset.`);
    const accepted = payload.accepted;
    if (accepted.network !== requirements.network)
      return refuse(PaymentReason.networkMismatch, 'The payment was made for another network.');
    if (accepted.asset.toLowerCase() !== requirements.asset.toLowerCase())
      return refuse(PaymentReason.assetMismatch, 'The payment was made in another asset.');
    if (
      accepted.payTo.toLowerCase() !== requirements.payTo.toLowerCase() ||
      authorization.to.toLowerCase() !== requirements.payTo.toLowerCase()
    )
      return refuse(PaymentReason.recipientMismatch, 'The authorization pays another recipient.');
    if (accepted.amount !== requirements.amount || authorization.value !== requirements.amount)
      return refuse(
        PaymentReason.valueMismatch,
        `The authorization is not for exactly ${requirements.amount}.`,
      );
    if (!isDeepStrictEqual(normalise(accepted), normalise(requirements)))
      return refuse(
        PaymentReason.invalidRequirements,
        'The accepted requirements differ from the quoted ones.',
      );
    if (BigInt(requirements.amount) > this.#options.maxAmount)
      return refuse(
        PaymentReason.amountAboveLimit,
        `Payments above ${this.#options.maxAmount} are not settled here.`,
      );
    const now = BigInt(Math.floor(Date.now() / 1000));
    const longest = BigInt(Math.min(requirements.maxTimeoutSeconds, this.#options.maxTimeoutSeconds));
    if (BigInt(authorization.validBefore) > now + longest + CLOCK_SKEW_SECONDS)
      return refuse(PaymentReason.validityTooLong, `The authorization stays valid longer than ${longest} s.`);

    const [used, balance] = await Promise.all([
      this.#wallet.readContract({
        address: asset.address,
        abi: tokenAbi,
        functionName: 'authorizationState',
        args: [getAddress(payer), authorization.nonce as Hex],
      }),
      this.#wallet.readContract({
        address: asset.address,
        abi: tokenAbi,
        functionName: 'balanceOf',
        args: [getAddress(payer)],
      }),
    ]);
    if (used) return refuse(PaymentReason.nonceUsed, 'This authorization has already been used.');
    if (balance < BigInt(authorization.value))
      return refuse(
        PaymentReason.insufficientBalance,
        `The payer holds ${balance}, less than ${authorization.value}.`,
      );
    return undefined;
  }

  /** The transaction that used this authorization, when it paid exactly what is required. */
  async #findSettlement({
    requirements,
    authorization,
  }: FacilitatorRequest): Promise<SettleResponse | undefined> {
    const asset = getAddress(requirements.asset);
    const logs = await this.#wallet.getLogs({
      address: asset,
      event: tokenAbi[6],
      args: { authorizer: getAddress(authorization.from), nonce: authorization.nonce as Hex },
      fromBlock: 0n,
    });
    const hash = logs[0]?.transactionHash;
    if (!hash) return undefined;
    const receipt = await this.#wallet.getTransactionReceipt({ hash });
    const paid = parseEventLogs({ abi: tokenAbi, logs: receipt.logs, eventName: 'Transfer' }).some(
      (log) =>
        log.args.from.toLowerCase() === authorization.from.toLowerCase() &&
        log.args.to.toLowerCase() === requirements.payTo.toLowerCase() &&
        log.args.value === BigInt(requirements.amount),
    );
    if (receipt.status !== 'success' || !paid) return undefined;
    return { success: true, transaction: hash, network: requirements.network, payer: authorization.from };
  }

  /** Sends one transaction; on failure the locally counted nonce is re-read before the next. */
  async #send(send: () => Promise<Hex>): Promise<Hex> {
    try {
      return await send();
    } catch (error) {
      nonceManager.reset({ address: this.signer, chainId: this.#options.chain.evmChainId ?? 0 });
      throw error;
    }
  }
}

function walletClient(options: EvmFacilitatorOptions) {
  const { chain, rpcUrls } = options;
  if (chain.evmChainId === undefined) throw new Error(`${chain.name} is not an EVM chain`);
  if (rpcUrls.length === 0) throw new Error(`no RPC endpoint configured for ${chain.name}`);
  const viemChain: Chain = defineChain({
    id: chain.evmChainId,
    name: chain.name,
    nativeCurrency: {
      name: chain.native.symbol,
      symbol: chain.native.symbol,
      decimals: chain.native.decimals,
    },
    rpcUrls: { default: { http: [...rpcUrls] } },
  });
  const transports = rpcUrls.map((url) =>
    http(url, {
      timeout: options.rpcTimeoutMs ?? 5_000,
      retryCount: 1,
      onFetchRequest: () => countStep('rpc'),
    }),
  );
  return createWalletClient({
    // Transaction nonces counted in this process: concurrent settles get consecutive nonces.
    account: privateKeyToAccount(options.privateKey, { nonceManager }),
    chain: viemChain,
    transport: transports.length === 1 && transports[0] ? transports[0] : fallback(transports),
    pollingInterval: options.receiptPollMs ?? 200,
    cacheTime: 0,
  }).extend(publicActions);
}

function normalise(requirements: { extra?: unknown } & Record<string, unknown>) {
  return {
    ...requirements,
    extra: requirements.extra ?? {},
    asset: String(requirements.asset).toLowerCase(),
    payTo: String(requirements.payTo).toLowerCase(),
  };
}

function scrub(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\b(?:https?|wss?):\/\/[^\s"')]+/g, (url) => redactUrl(url)).slice(0, 300);
}
