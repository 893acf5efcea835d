import type { PublicClient } from 'viem';
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import { bytecodeFingerprint } from '../../scanner/fingerprint/bytecodeFingerprint.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import { EvidenceLinker } from '../evidence.ts';
import { SectionUnavailable } from './unavailable.ts';

const SimilarAnswer = z.object({
  tokens: z.array(
    z.object({
      chain: z.string(),
      address: z.string(),
      similarity: z.number(),
      identical_code: z.boolean(),
      near_clone: z.boolean(),
      known_verdict: z.object({ risk_score: z.number().nullable(), tier: z.string(), harmful: z.boolean() }),
    }),
  ),
  indexed_tokens: z.number(),
});

const TOP_K = 5;

/** Scanned tokens whose code is like this one's, with their verdicts (the retrieval service ranks them). */
export async function similarSection(
  client: PublicClient,
  retrievalUrl: string,
  target: { chain: string; address: string },
  signal?: AbortSignal,
): Promise<Section> {
  if (!isAddress(target.address, { strict: false })) {
    throw new SectionUnavailable('Similar tokens are found by EVM bytecode; this is not an EVM address.');
  }
  const address = getAddress(target.address);
  const code = await client.getCode({ address });
  const fingerprint = code ? bytecodeFingerprint(code) : undefined;
  if (!fingerprint) throw new SectionUnavailable(`${address} holds no contract code.`);
  const response = await fetch(`${retrievalUrl.replace(/\/+$/, '')}/v1/tokens/similar`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chain: target.chain, address, fingerprint, top_k: TOP_K, cross_chain: true }),
    signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(10_000)]) : AbortSignal.timeout(10_000),
  }).catch((error: unknown) => {
    throw new Error(`The retrieval service at ${redactUrl(retrievalUrl)} did not answer.`, { cause: error });
  });
  if (!response.ok) throw new Error(`The retrieval service answered ${response.status}.`);
  const answer = SimilarAnswer.parse(await response.json());
  const facts: Fact[] = answer.tokens.map((token) => ({
    id: `similar-${token.chain}-${token.address.toLowerCase()}`,
    text: `${token.address} on ${token.chain} has ${token.identical_code ? 'identical' : token.near_clone ? 'near-clone' : 'similar'} code (similarity ${token.similarity.toFixed(2)}); its last scan: ${token.known_verdict.tier}${token.known_verdict.risk_score === null ? '' : ` ${token.known_verdict.risk_score}/100`}${token.known_verdict.harmful ? ', harmful' : ''}.`,
    evidence: [new EvidenceLinker(token.chain).address(token.address)],
  }));
  return {
    kind: SectionKind.similar,
    title: SECTION_TITLES.similar,
    status: SectionStatus.completed,
    facts,
    data: { compared_with: answer.indexed_tokens, tokens: answer.tokens },
    charts: [],
  };
}
