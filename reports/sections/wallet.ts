import type { Analytics } from '../../chaindata/analytics/sandbox.ts';
import { type Fact, type Section, SECTION_TITLES, SectionKind, SectionStatus } from '../core/schema.ts';
import type { EvidenceLinker } from '../evidence.ts';
import { SectionUnavailable } from './unavailable.ts';

/** A wallet's activity as far as the chain index holds it: transfers, swaps, deployments, labels. */
export async function walletSection(
  analytics: Analytics,
  chain: string,
  wallet: string,
  links: EvidenceLinker,
): Promise<Section> {
  const address = wallet.toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(address)) {
    throw new SectionUnavailable(
      'Wallet activity is read from the EVM chain index; this is not an EVM address.',
    );
  }
  const values = { chain, wallet: address };
  const [transfers, counterparties, swaps, deployments, labels] = await Promise.all([
    analytics.internal(
      `SELECT count(*) FILTER (WHERE from_address = $wallet) AS sent, count(*) FILTER (WHERE to_address = $wallet) AS received,
              min(block_number) AS first_block, max(block_number) AS last_block,
              arg_min(tx_hash, block_number) AS first_tx, arg_max(tx_hash, block_number) AS last_tx,
              count(DISTINCT token) AS tokens
         FROM transfers WHERE chain = $chain AND (from_address = $wallet OR to_address = $wallet)`,
      values,
    ),
    analytics.internal(
      `SELECT CASE WHEN from_address = $wallet THEN to_address ELSE from_address END AS counterparty, count(*) AS n
         FROM transfers WHERE chain = $chain AND (from_address = $wallet OR to_address = $wallet)
        GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
      values,
    ),
    analytics.internal(
      `SELECT count(*) AS n FROM swaps WHERE chain = $chain AND recipient = $wallet`,
      values,
    ),
    analytics.internal(
      `SELECT contract_address, block_number, tx_hash FROM deployments WHERE chain = $chain AND deployer = $wallet ORDER BY block_number LIMIT 20`,
      values,
    ),
    analytics.internal(
      `SELECT label, category, source FROM labels WHERE chain = $chain AND address = $wallet`,
      values,
    ),
  ]);
  const summary = transfers.rows[0] ?? {};
  const sent = Number(summary.sent ?? 0);
  const received = Number(summary.received ?? 0);
  const facts: Fact[] = [];
  if (sent + received > 0) {
    facts.push({
      id: 'wallet-summary',
      text: `The wallet sent ${sent} and received ${received} transfers of ${Number(summary.tokens ?? 0)} token${Number(summary.tokens) === 1 ? '' : 's'} between blocks ${String(summary.first_block)} and ${String(summary.last_block)}.`,
      evidence: [
        links.address(address),
        links.tx(String(summary.first_tx)),
        links.tx(String(summary.last_tx)),
      ],
    });
  } else {
    facts.push({
      id: 'wallet-summary',
      text: 'The chain index holds no transfers of this wallet.',
      evidence: [links.address(address)],
    });
  }
  for (const row of deployments.rows) {
    facts.push({
      id: `wallet-deployed-${String(row.contract_address)}`,
      text: `It deployed ${String(row.contract_address)} at block ${String(row.block_number)}.`,
      evidence: [links.tx(String(row.tx_hash)), links.block(String(row.block_number))],
    });
  }
  for (const row of labels.rows) {
    facts.push({
      id: `wallet-label-${String(row.label)
        .toLowerCase()
        .replace(/[^a-z0-9_-]/g, '_')}`,
      text: `It is labelled ${String(row.label)} (${String(row.category)}) by ${String(row.source)}.`,
      evidence: [links.address(address)],
    });
  }
  return {
    kind: SectionKind.wallet,
    title: SECTION_TITLES.wallet,
    status: SectionStatus.completed,
    facts,
    data: {
      sent,
      received,
      swaps: Number(swaps.rows[0]?.n ?? 0),
      counterparties: counterparties.rows.map((row) => ({
        address: String(row.counterparty),
        transfers: Number(row.n),
      })),
      deployments: deployments.rows.length,
      labels: labels.rows,
    },
    charts: [],
  };
}
