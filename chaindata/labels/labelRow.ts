/** One label of one address on one chain, as the labels table holds it. */
export interface LabelRow {
  address: string;
  chain: string;
  chain_id: number;
  label: string;
  category: string;
  name_tag: string | null;
  source: string;
}
