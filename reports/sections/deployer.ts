import type { Analytics } from '../../chaindata/analytics/sandbox.ts';
import type { DeployerReputation } from '../../scanner/evm/deployerReputation.ts';
import type { ScanResult } from '../../scanner/core/result.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import type { EvidenceLinker } from '../evidence.ts';
import { SectionUnavailable } from './unavailable.ts';

const MAX_DEPLOYMENTS = 50;

/**
 * The deployer's reputation (read by the scan's deployer engine at the scan's block) and the
 * contracts the indexed chain data saw it deploy.
 */
export async function deployerSection(
  scan: ScanResult,
  analytics: Analytics,
  links: EvidenceLinker,
): Promise<Section> {
  const deployer = scan.creation?.deployer;
  if (!deployer)
    throw new SectionUnavailable("The token's creator is not known, so it has no deployer record.");
  const reputation = scan.facts.deployer?.reputation as DeployerReputation | undefined;
  const facts: Fact[] = [];
  if (reputation) {
    facts.push({
      id: 'deployer-score',
      text: `The deployer ${deployer} has a reputation of ${reputation.score}/100: ${reputation.contracts_deployed} contracts deployed, ${reputation.rugs} rug${reputation.rugs === 1 ? '' : 's'}, ${reputation.honeypots} honeypot${reputation.honeypots === 1 ? '' : 's'}.`,
      evidence: [links.address(deployer), links.block(reputation.block_number)],
    });
    for (const token of reputation.tokens.filter((entry) => entry.rugged && entry.rug)) {
      facts.push({
        id: `deployer-rug-${token.address.toLowerCase()}`,
        text: `It removed the liquidity of ${token.symbol ?? token.address} ${token.rug?.seconds_after_launch ?? '?'} s after launch.`,
        evidence: [
          links.address(token.address),
          links.tx(token.rug?.tx ?? ''),
          links.block(token.rug?.block ?? '0'),
        ],
      });
    }
    if (reputation.funded_by) {
      facts.push({
        id: 'deployer-funding',
        text: `It was first funded by ${reputation.funded_by}${reputation.funded_by_labels.length ? ` (${reputation.funded_by_labels.map((label) => label.label).join(', ')})` : ''}.`,
        evidence: [links.address(reputation.funded_by)],
      });
    }
  }
  const address = deployer.toLowerCase();
  const deployments = /^0x[0-9a-f]{40}$/.test(address)
    ? await analytics.internal(
        `SELECT contract_address, block_number, tx_hash, code_size FROM deployments
          WHERE chain = $chain AND deployer = $deployer ORDER BY block_number`,
        { chain: scan.chain, deployer: address },
        MAX_DEPLOYMENTS,
      )
    : { rows: [], truncated: false };
  const indexed = deployments.rows.map((row) => ({
    contract: String(row.contract_address),
    block: Number(row.block_number),
    tx: String(row.tx_hash),
    code_size: Number(row.code_size),
  }));
  if (indexed.length > 0) {
    const first = indexed[0];
    facts.push({
      id: 'deployer-indexed',
      text: `The chain index holds ${indexed.length}${deployments.truncated ? '+' : ''} contract deployment${indexed.length === 1 ? '' : 's'} by this wallet${first ? `, the first at block ${first.block}` : ''}.`,
      evidence: first ? [links.tx(first.tx), links.block(first.block)] : [],
    });
  }
  return {
    kind: SectionKind.deployer,
    title: SECTION_TITLES.deployer,
    status: SectionStatus.completed,
    facts,
    data: {
      deployer,
      score: reputation?.score ?? null,
      contracts_deployed: reputation?.contracts_deployed ?? null,
      rugs: reputation?.rugs ?? null,
      honeypots: reputation?.honeypots ?? null,
      funded_by: reputation?.funded_by ?? null,
      indexed_deployments: indexed,
    },
    charts: [],
  };
}
