import { z } from 'zod';
import { getDeployerReputation } from '../../../scanner/deployerTool.ts';
import { Capability, CHAIN_IDS, hasCapability } from '../../../core/chains/registry.ts';
import { chainsOf, documentedAs, isEvm, servedTargets } from './targets.ts';
import { Check } from '../../../scanner/core/schema.ts';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { BackendDeps } from '../deps.ts';
import type { ScannerTrials } from '../scannerTrials.ts';

const Params = z.object({
  chain: z.enum(CHAIN_IDS).describe('Chain slug, e.g. ethereum, base, devnet'),
  address: z.string().min(1).max(128).describe('The deployer wallet'),
});

const DeployedToken = z.object({
  address: z.string(),
  symbol: z.string().nullable(),
  nonce: z.number().int(),
  pair: z.string().nullable(),
  added_wei: z.string(),
  removed_by_deployer_wei: z.string(),
  rugged: z.boolean(),
  rug: z.object({ block: z.string(), tx: z.string(), seconds_after_launch: z.number() }).optional(),
  honeypot: z.boolean().nullable(),
});

const DeployerReputationResponse = z
  .object({
    chain: z.string(),
    deployer: z.string(),
    block_number: z.string().describe('The block the record was read at'),
    score: z.number().int().min(0).max(100).describe('100: clean record; 0: serial rugger'),
    age_seconds: z.number().nullable(),
    first_seen_block: z.string().nullable(),
    funded_by: z.string().nullable().describe('Sender of the first funding transaction, or "genesis"'),
    funded_by_labels: z
      .array(
        z.object({
          label: z.string(),
          category: z.string(),
          name_tag: z.string().nullable(),
          source: z.string(),
        }),
      )
      .describe("The funder's labels on this chain (exchange, phish-hack, ...); a flagged one costs points"),
    nonce: z.number().int(),
    contracts_deployed: z.number().int(),
    tokens: z.array(DeployedToken),
    rugs: z.number().int(),
    honeypots: z.number().int(),
    explanation: z.array(z.string()),
    complete: z.boolean().describe('False when only the most recent nonces were examined'),
    checks: z.array(Check),
  })
  .meta({ id: 'DeployerReputation' });

/** Deployer reputation on its own: the record a token scan's deployer category is built from. */
export function deployerRoutes(app: VigilApp, deps: BackendDeps, trials: ScannerTrials): void {
  // Deployer records are read on the EVM chains this deployment has an RPC for.
  const documentedParams = servedTargets(
    Params,
    chainsOf(deps.chains.configured()).filter(
      (chain) => isEvm(chain) && hasCapability(chain, Capability.walletAnalysis),
    ),
  );
  app.get(
    '/api/v2/scanner/deployers/:chain/:address',
    {
      schema: {
        tags: ['scanner'],
        summary: 'Reputation of a token deployer: 100 clean, 0 serial rugger, with the evidence',
        description:
          "Wallet age and funding source, the contracts it created and, for its most recent tokens, whether the deployer pulled their liquidity soon after launch or sells revert. Read at the chain's latest block; reused for SCAN_DEPLOYER_CACHE_SECONDS.",
        params: Params,
        response: {
          200: DeployerReputationResponse,
          400: Problem,
          401: Problem,
          402: Problem,
          422: Problem,
          429: Problem,
          503: Problem,
        },
      },
      config: documentedAs('params', documentedParams),
    },
    async (request, reply) => {
      // Anonymous callers take a free call of deployer_reputation, the tool that sells this record.
      const admission = await trials.admit(request.caller, request.headers, 'deployer_reputation');
      let answer: Awaited<ReturnType<typeof getDeployerReputation>>;
      try {
        answer = await getDeployerReputation(
          { chains: deps.chains, config: deps.scanConfig, cache: deps.deployerCache },
          request.params,
        );
      } catch (error) {
        await admission?.release();
        throw error;
      }
      for (const [name, value] of Object.entries(admission?.headers ?? {})) reply.header(name, value);
      const { reputation, checks, degraded } = answer;
      if (degraded.length > 0) reply.header('x-degraded-stores', degraded.join(','));
      return { ...reputation, checks };
    },
  );
}
