// The one entry the workflow bundle is built from: every workflow any pool runs.
export { scanToken } from './scanToken.ts';
export { settlePayment } from './settlePayment.ts';
export { scrapePage } from './scrapePage.ts';
export { refundPayment } from './refundPayment.ts';
export { indexChain } from './indexChain.ts';
export { backfillRange } from './backfillRange.ts';
export { ingestDocument } from './ingestDocument.ts';
export { generateReport } from './generateReport.ts';
export { ingestNews } from './ingestNews.ts';
