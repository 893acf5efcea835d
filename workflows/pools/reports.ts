// The workflows the reports pool runs (its scans run as children on the scanner pool): its
// worker bundles only these.
export { generateReport } from '../generateReport.ts';
export { ingestNews } from '../ingestNews.ts';
