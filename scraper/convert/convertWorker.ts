// A conversion thread of the scraper engine's pool (see convertPool.ts).
import { parentPort } from 'node:worker_threads';
import { type ConvertInput, convertWithExtras } from './convert.ts';

parentPort?.on('message', ({ id, input }: { id: number; input: ConvertInput }) => {
  try {
    parentPort?.postMessage({ id, result: convertWithExtras(input) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
