import type { LabelRow } from './labelRow.ts';
import { loadLabelRows } from './sources.ts';

/** The label facts a check cites as evidence. */
export interface LabelEvidence {
  label: string;
  category: string;
  name_tag: string | null;
  source: string;
}

/** Categories that say an address is dangerous to have dealt with. */
export const FLAGGED_CATEGORIES: ReadonlySet<string> = new Set(['phish_hack', 'sanctioned', 'mixer']);

let byAddress: Map<string, LabelRow[]> | undefined;

/**
 * The labels of one address on one EVM chain, from the installed label sources, held in memory
 * (about 160K rows, read once per process) for checks that need a label per call without the analytics
 * engine: a scan's deployer funding, say.
 */
export function labelsOnChain(chainId: number | undefined, address: string): LabelEvidence[] {
  if (chainId === undefined) return [];
  byAddress ??= groupByAddress(loadLabelRows());
  return (byAddress.get(address.toLowerCase()) ?? [])
    .filter((row) => row.chain_id === chainId)
    .map(({ label, category, name_tag, source }) => ({ label, category, name_tag, source }));
}

function groupByAddress(rows: readonly LabelRow[]): Map<string, LabelRow[]> {
  const grouped = new Map<string, LabelRow[]>();
  for (const row of rows) grouped.set(row.address, [...(grouped.get(row.address) ?? []), row]);
  return grouped;
}
