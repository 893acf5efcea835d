import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  type Address,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  devnet,
  getBase58Encoder,
  type KeyPairSigner,
} from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, SettleResponse, VerifyResponse } from '@x402/core/types';
import { findDefaultAsset, SettlementCache, toFacilitatorSvmSigner } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import { SOLANA_DEVNET_GENESIS_HASH } from '../../core/chains/registry.ts';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { scrubText } from '../../core/errors/scrubError.ts';
import { StepTimings, timeStep, withTimings } from '../plugins/stepTimings.ts';
import { paymentDigest } from '../../core/x402/digest.ts';
import { PaymentReason, TERMINAL_SETTLE_REASONS } from '../../core/x402/reasons.ts';
import { parseSvmRequest, type SvmRequest } from './svmRequest.ts';
import type { SettlementStore } from './settlementStore.ts';

/** Solana devnet's CAIP-2 id, which a local runtime poses as (see servesNetwork). */
export const SOLANA_DEVNET_CAIP2 = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';

export interface SvmAsset {
  network: Network;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  token_program: string;
  transfer_method: 'spl_transfer_checked';
}

export interface SvmFacilitatorOptions {
  /** CAIP-2 id: solana:<first 32 characters of the genesis hash>. */
  network: Network;
  rpcUrl: string;
  /** The fee payer: base58 of its 64 keypair bytes. */
  secretKey: string;
  /** SPL mints accepted. */
  assets: readonly string[];
  /** The only wallets payments may go to. */
  payees: readonly string[];
  store: SettlementStore;
  /** The smallest payment (atomic): the cheapest price. */
  minAmount: bigint;
  maxAmount: bigint;
  minFeePayerLamports: bigint;
  /** How long a settle holds its transaction's lock before another replica may take over. */
  lockMs?: number;
}

/**
 * What a payer's transaction may make the fee payer spend. The payer chooses the compute-unit
 * limit and price and the signer count, and the fee payer pays base fee (5,000 lamports per
 * signature) plus limit × price; the SDK caps only the price (5 lamports a unit) unless told, so
 * 1.4 M units made a $0.01 payment cost the fee payer 0.007 SOL. The official client asks for
 * 20,000 units at 1 micro-lamport with two signatures (payer and fee payer); these bounds leave
 * wallets room for injected guard instructions and a modest priority fee, and cap the worst case
 * at 10,000 lamports of priority fee and 10,000 of base fee per payment.
 */
const FEE_PAYER_BOUNDS = {
  maxComputeUnits: 100_000,
  maxPriorityFeeMicroLamports: 100_000,
  maxRequiredSignatures: 2,
} as const;

/** The payload being settled, so the SDK's pending-transaction store is keyed by it. */
const settling = new AsyncLocalStorage<string>();

/**
 * An x402 facilitator for the `exact` scheme on Solana. Instruction layout, amount, destination
 * (the payee's associated token account), fee-payer isolation, compute budget and signer caps
 * (Vigil's FEE_PAYER_BOUNDS), simulation
 * (before the fee payer signs anything), fee-payer signature, submission and confirmation are the
 * official @x402/svm ExactSvmScheme's (with its SettlementCache); Vigil adds the payees, the asset
 * and amount bounds, and makes settlement exact and idempotent across requests and replicas: an
 * answer belongs to the signed payload (and requirements) that earned it, one settle of a
 * transaction runs at a time, and nothing is ever sent twice.
 */
export class SvmFacilitator {
  readonly network: Network;
  readonly feePayer: string;
  readonly assets: readonly SvmAsset[];
  readonly #options: SvmFacilitatorOptions;
  readonly #x402: x402Facilitator;
  readonly #rpc: ReturnType<typeof createSolanaRpc>;
  readonly #inflight = new Map<string, Promise<SettleResponse>>();

  private constructor(options: SvmFacilitatorOptions, signer: KeyPairSigner, assets: SvmAsset[]) {
    this.#options = options;
    this.network = options.network;
    this.feePayer = signer.address;
    this.assets = assets;
    this.#rpc = createSolanaRpc(options.rpcUrl);
    // The SDK's RPC client only takes the mainnet, devnet and testnet ids; the map keys the
    // configured network to the configured endpoint, whatever cluster it serves.
    const rpc = createSolanaRpc(devnet(options.rpcUrl));
    this.#x402 = new x402Facilitator().register(
      options.network,
      new ExactSvmScheme(toFacilitatorSvmSigner(signer, { [options.network]: rpc }), new SettlementCache(), {
        pendingSettlementStore: options.store.pendingFor(() => settling.getStore()),
        ...FEE_PAYER_BOUNDS,
      }),
    );
  }

  /** Checks the RPC serves the configured cluster (genesis hash) and reads each mint's decimals. */
  static async create(options: SvmFacilitatorOptions): Promise<SvmFacilitator> {
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(options.secretKey));
    const rpc = createSolanaRpc(options.rpcUrl);
    const genesis = await rpc.getGenesisHash().send();
    if (!servesNetwork(genesis, options.network))
      throw new Error(
        `Solana RPC ${redactUrl(options.rpcUrl)} serves genesis ${genesis}, not ${options.network}`,
      );
    const assets = await Promise.all(
      options.assets.map(async (mint): Promise<SvmAsset> => {
        const { value } = await rpc.getAccountInfo(mint as Address, { encoding: 'base64' }).send();
        const data = value ? Buffer.from(value.data[0], 'base64') : undefined;
        if (!value || !data || data.length < 82)
          throw new Error(`FACILITATOR_SVM_ASSETS: ${mint} is not a mint`);
        const known = findDefaultAsset(mint, options.network);
        const symbol = known?.symbol ?? 'SPL';
        return {
          network: options.network,
          address: mint,
          name: symbol,
          symbol,
          decimals: data[44] ?? 0,
          token_program: value.owner,
          transfer_method: 'spl_transfer_checked',
        };
      }),
    );
    return new SvmFacilitator(options, signer, assets);
  }

  get maxAmount(): bigint {
    return this.#options.maxAmount;
  }

  get minAmount(): bigint {
    return this.#options.minAmount;
  }

  get payees(): readonly string[] {
    return this.#options.payees;
  }

  supported() {
    return this.#x402.getSupported();
  }

  async verify(body: unknown, timings = new StepTimings()): Promise<VerifyResponse> {
    return withTimings(timings, async () => {
      const parsed = this.#parse(body);
      if (!parsed.ok) return { isValid: false, invalidReason: parsed.reason, invalidMessage: parsed.message };
      const { payload, requirements } = parsed.request;
      return timeStep('sdk_verify', () => this.#x402.verify(payload, requirements)).catch(
        (error: unknown): VerifyResponse => ({
          isValid: false,
          invalidReason: PaymentReason.unexpectedVerify,
          invalidMessage: error instanceof Error ? error.message.slice(0, 200) : 'verification failed',
        }),
      );
    });
  }

  /** Idempotent: every request for one transaction gets the same answer, and it is sent at most once. */
  async settle(body: unknown, timings = new StepTimings()): Promise<SettleResponse> {
    return withTimings(timings, () => {
      const parsed = this.#parse(body);
      if (!parsed.ok)
        return Promise.resolve({
          success: false,
          errorReason: parsed.reason,
          errorMessage: parsed.message,
          transaction: '',
          network: this.network,
        });
      const { request } = parsed;
      const digest = paymentDigest(request.payload, request.requirements);
      const running = this.#inflight.get(digest);
      if (running) return running;
      const settle = settling
        .run(digest, () => this.#settleOnce(request, digest))
        .finally(() => this.#inflight.delete(digest));
      this.#inflight.set(digest, settle);
      return settle;
    });
  }

  async health() {
    const started = performance.now();
    try {
      const [genesis, balance] = await Promise.all([
        this.#rpc.getGenesisHash().send(),
        this.#rpc.getBalance(this.feePayer as Address).send(),
      ]);
      const funded = balance.value >= this.#options.minFeePayerLamports;
      const onNetwork = servesNetwork(genesis, this.network);
      return {
        status: funded && onNetwork ? ('ok' as const) : ('degraded' as const),
        network: this.network,
        rpc: { reachable: true, genesis_hash: genesis, latency_ms: Math.round(performance.now() - started) },
        fee_payer: { address: this.feePayer, balance_lamports: balance.value.toString(), funded },
      };
    } catch (error) {
      return {
        status: 'down' as const,
        network: this.network,
        rpc: { reachable: false, genesis_hash: null, latency_ms: null, error: scrub(error) },
        fee_payer: { address: this.feePayer, balance_lamports: null, funded: false },
      };
    }
  }

  #parse(body: unknown) {
    return parseSvmRequest(body, {
      network: this.network,
      assets: this.assets.map((asset) => asset.address),
      payees: this.#options.payees,
      minAmount: this.#options.minAmount,
      maxAmount: this.#options.maxAmount,
    });
  }

  async #settleOnce(request: SvmRequest, digest: string): Promise<SettleResponse> {
    const { store } = this.#options;
    const lockMs = this.#options.lockMs ?? 60_000;
    const token = randomUUID();
    const deadline = Date.now() + lockMs;
    for (;;) {
      const claim = await timeStep('store', () => store.claim(request.key, digest, token, lockMs));
      if ('answer' in claim) return claim.answer;
      if (claim.claimed) break;
      // Another replica is settling this transaction: its answer is ours.
      if (Date.now() > deadline)
        return failure(request, PaymentReason.settlementPending, 'Another settlement is in progress.');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    let final: SettleResponse | undefined;
    try {
      const result = await timeStep('sdk_settle', () =>
        this.#x402.settle(request.payload, request.requirements),
      ).catch((error: unknown) => failure(request, PaymentReason.unexpectedSettle, scrub(error)));
      if (result.success || (result.errorReason && TERMINAL_SETTLE_REASONS.includes(result.errorReason)))
        final = result;
      return result;
    } finally {
      await timeStep('store', () => store.release(request.key, digest, token, final));
    }
  }
}

/**
 * Whether a cluster with this genesis hash is the network: its CAIP-2 reference is the hash's
 * first 32 characters. The local devnet (LiteSVM) poses as Solana devnet, since the official
 * client only takes the mainnet, devnet and testnet ids.
 */
export function servesNetwork(genesis: string, network: string): boolean {
  if (network === SOLANA_DEVNET_CAIP2 && genesis === SOLANA_DEVNET_GENESIS_HASH) return true;
  const [namespace, reference] = network.split(':');
  return (
    namespace === 'solana' && reference !== undefined && reference.length > 0 && genesis.startsWith(reference)
  );
}

function failure(request: SvmRequest, reason: string, message: string): SettleResponse {
  return {
    success: false,
    errorReason: reason,
    errorMessage: message,
    transaction: '',
    network: request.requirements.network,
    payer: request.payer,
  };
}

function scrub(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return scrubText(message).slice(0, 300);
}
