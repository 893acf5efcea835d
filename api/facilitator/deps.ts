import type { Redis } from 'ioredis';
import type { Hex } from 'viem';
import { readRpcConfig } from '../../clients/chains/rpcConfig.ts';
import { findChain } from '../../core/chains/registry.ts';
import { createRedis } from '../../clients/redis.ts';
import type { FacilitatorEnv } from './config.ts';
import { FacilitatorEngines } from './engine.ts';
import { EvmFacilitator } from './evmFacilitator.ts';
import { SettlementStore } from './settlementStore.ts';
import { SvmFacilitator } from './svmFacilitator.ts';

export interface FacilitatorDeps {
  facilitator: FacilitatorEngines;
  /** Counts callers' requests (rate limits). */
  redis: Redis;
  close(): Promise<void>;
}

/** Connects to the chain and Redis; fails at boot when the chain or an asset is not what config says. */
export async function createFacilitatorDeps(
  env: FacilitatorEnv,
  rpcUrls = readRpcConfig(),
): Promise<FacilitatorDeps> {
  const chain = findChain(env.FACILITATOR_CHAIN);
  if (!chain) throw new Error(`FACILITATOR_CHAIN: unknown chain "${env.FACILITATOR_CHAIN}"`);
  const redis = createRedis(env.REDIS_URL, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    failFast: false,
    tlsCaPath: env.REDIS_TLS_CA_PATH,
  });
  try {
    const facilitator = await EvmFacilitator.create({
      chain,
      rpcUrls: rpcUrls.get(chain.id as never) ?? [],
      privateKey: env.FACILITATOR_PRIVATE_KEY as Hex,
      assets: env.FACILITATOR_ASSETS,
      payees: env.FACILITATOR_PAY_TO,
      store: new SettlementStore(redis),
      minAmount: BigInt(env.FACILITATOR_MIN_AMOUNT),
      confirmationTimeoutMs: env.FACILITATOR_CONFIRMATION_TIMEOUT_MS,
      maxAmount: BigInt(env.FACILITATOR_MAX_AMOUNT),
      maxTimeoutSeconds: env.FACILITATOR_MAX_TIMEOUT_SECONDS,
      minSignerBalanceWei: BigInt(env.FACILITATOR_MIN_SIGNER_BALANCE_WEI),
      rpcTimeoutMs: env.RPC_REQUEST_TIMEOUT_MS,
      receiptPollMs: env.FACILITATOR_RECEIPT_POLL_MS,
      recoveryLookbackBlocks: BigInt(env.FACILITATOR_RECOVERY_LOOKBACK_BLOCKS),
    });
    const svm = await svmFacilitatorOf(env, new SettlementStore(redis));
    return {
      facilitator: new FacilitatorEngines(facilitator, svm),
      redis,
      close: async () => void (await redis.quit()),
    };
  } catch (error) {
    redis.disconnect();
    throw error;
  }
}

/** Solana is offered only when its RPC, fee payer and mints are all configured. */
async function svmFacilitatorOf(
  env: FacilitatorEnv,
  store: SettlementStore,
): Promise<SvmFacilitator | undefined> {
  const { FACILITATOR_SVM_RPC_URL: rpcUrl, FACILITATOR_SVM_PRIVATE_KEY: secretKey } = env;
  const assets = env.FACILITATOR_SVM_ASSETS;
  const payees = env.FACILITATOR_SVM_PAY_TO;
  if (!rpcUrl && !secretKey && !assets && !payees) return undefined;
  if (!rpcUrl || !secretKey || !assets || !payees)
    throw new Error(
      'Solana needs FACILITATOR_SVM_RPC_URL, FACILITATOR_SVM_PRIVATE_KEY, FACILITATOR_SVM_ASSETS and FACILITATOR_SVM_PAY_TO together',
    );
  return SvmFacilitator.create({
    network: env.FACILITATOR_SVM_NETWORK as `${string}:${string}`,
    rpcUrl,
    secretKey,
    assets,
    payees,
    store,
    minAmount: BigInt(env.FACILITATOR_MIN_AMOUNT),
    maxAmount: BigInt(env.FACILITATOR_MAX_AMOUNT),
    minFeePayerLamports: BigInt(env.FACILITATOR_SVM_MIN_FEE_PAYER_LAMPORTS),
    lockMs: env.FACILITATOR_CONFIRMATION_TIMEOUT_MS + 30_000,
  });
}
