// An extraction worker thread: converts each batch of pages it is sent and answers with them.
import { parentPort } from 'node:worker_threads';
import type { ScrapeFormat } from '../../core/scrape/outcome.ts';
import { convertPage } from '../../scraper/convert/convert.ts';

export interface ExtractionBatch {
  format: ScrapeFormat;
  pages: { key: string; html: string; url: string }[];
}

parentPort?.on('message', (batch: ExtractionBatch) => {
  const output: Record<string, string> = {};
  for (const page of batch.pages) {
    const content = convertPage({
      format: batch.format,
      body: page.html,
      contentType: 'text/html; charset=utf-8',
      url: page.url,
      headers: {},
    });
    output[page.key] = typeof content === 'string' ? content : JSON.stringify(content);
  }
  parentPort?.postMessage(output);
});
