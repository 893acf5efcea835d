import { redactUrl } from '../../core/errors/redactUrl.ts';
import { CHAINS, type ChainId } from '../../core/chains/registry.ts';

/** Only the local devnets have default endpoints: the embedded stack's anvil and Solana front. */
const DEFAULT_RPC_URLS: Partial<Record<ChainId, string[]>> = {
  devnet: ['http://127.0.0.1:8545'],
  solana_devnet: ['http://127.0.0.1:8899'],
};

function rpcEnvName(chain: ChainId): string {
  return `RPC_URLS_${chain.toUpperCase()}`;
}

/**
 * Reads each chain's RPC endpoints from `RPC_URLS_<CHAIN>` (comma separated, in order of
 * preference). A chain with no endpoint is known but unavailable on this deployment.
 */
export function readRpcConfig(env: NodeJS.ProcessEnv = process.env): Map<ChainId, string[]> {
  const out = new Map<ChainId, string[]>();
  for (const chain of CHAINS) {
    const raw = env[rpcEnvName(chain.id)];
    const urls =
      raw === undefined ? (DEFAULT_RPC_URLS[chain.id] ?? []) : parseUrlList(raw, rpcEnvName(chain.id));
    if (urls.length > 0) out.set(chain.id, urls);
  }
  return out;
}

function parseUrlList(raw: string, name: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part);
      } catch {
        throw new Error(`${name}: ${redactUrl(part)} is not a URL`);
      }
      // Reads fail over between HTTP JSON-RPC providers (see providerPool.ts).
      if (!['http:', 'https:'].includes(url.protocol)) {
        throw new Error(`${name}: ${redactUrl(part)} must be an http(s) URL`);
      }
      return part;
    });
}
