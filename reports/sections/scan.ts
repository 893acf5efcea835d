import type { ScanResult } from '../../scanner/core/result.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import type { EvidenceLinker } from '../evidence.ts';

/** The token scan as a section: the verdict, each flag and green flag with its check and block. */
export function scanSection(scan: ScanResult, links: EvidenceLinker): Section {
  const pinned = links.block(scan.block_number);
  const name = scan.token.symbol ?? scan.token.name ?? scan.address;
  const facts: Fact[] = [
    {
      id: 'scan-verdict',
      text:
        scan.risk_score === null
          ? `${name} could not be scored (coverage ${(scan.coverage * 100).toFixed(0)}%).`
          : `${name} scores ${scan.risk_score}/100 (${scan.tier}, ${scan.confidence} confidence) at block ${scan.block_number}.`,
      evidence: [pinned],
    },
  ];
  if (scan.creation) {
    facts.push({
      id: 'scan-creation',
      text: `It was created at block ${scan.creation.block} by ${scan.creation.deployer}.`,
      evidence: [
        links.block(scan.creation.block),
        links.tx(scan.creation.tx),
        links.address(scan.creation.deployer),
      ],
    });
  }
  for (const check of scan.flags) {
    facts.push({
      id: `check-${check.id}`,
      text: `${check.title}: ${check.detail}`,
      evidence: [links.check(check.id), ...checkBlocks(check.evidence, links)],
    });
  }
  for (const check of scan.green_flags) {
    facts.push({
      id: `check-${check.id}`,
      text: `${check.title}: ${check.detail}`,
      evidence: [links.check(check.id), ...checkBlocks(check.evidence, links)],
    });
  }
  return {
    kind: SectionKind.scan,
    title: SECTION_TITLES.scan,
    status: SectionStatus.completed,
    facts,
    data: {
      risk_score: scan.risk_score,
      tier: scan.tier,
      confidence: scan.confidence,
      coverage: scan.coverage,
      block_number: scan.block_number,
      token: scan.token,
      creation: scan.creation,
      categories: Object.fromEntries(
        Object.entries(scan.categories).map(([category, score]) => [category, score.score]),
      ),
      gates: scan.gates,
      flags: scan.flags.map((check) => ({ id: check.id, severity: check.severity, title: check.title })),
      green_flags: scan.green_flags.map((check) => ({ id: check.id, title: check.title })),
      explanation: scan.explanation,
    },
    charts: [],
  };
}

function checkBlocks(evidence: ScanResult['checks'][number]['evidence'], links: EvidenceLinker) {
  const blocks = new Set(evidence.flatMap((item) => (item.block === undefined ? [] : [item.block])));
  return [...blocks].map((block) => links.block(block));
}
