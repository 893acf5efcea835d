// The workflows the ingest pool runs: its worker bundles only these.
export { indexChain } from '../indexChain.ts';
export { backfillRange } from '../backfillRange.ts';
export { ingestDocument } from '../ingestDocument.ts';
