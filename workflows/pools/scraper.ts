// The workflows the scraper pool runs: its worker bundles only these.
export { scrapePage } from '../scrapePage.ts';
