import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { temporal } from '@temporalio/proto';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { ScanResult } from '../../scanner/core/result.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Writes a recorded history for the replay tests (`RECORD_HISTORIES=1`). Stack traces in failures
 * name files by absolute path: the checkout's own path is replaced, so a recording says nothing
 * of the machine it was made on.
 */
export function recordHistory(name: string, history: temporal.api.history.v1.IHistory): void {
  const json = historyToJSON(history).replaceAll(REPO_ROOT, '/srv/vigil/');
  writeFileSync(new URL(`../histories/${name}.json`, import.meta.url), `${json}\n`);
}

/** The result a worker returned in the recorded scan history: a real run's (~30 KB of JSON). */
export function recordedScanResult(): ScanResult {
  const history = JSON.parse(
    readFileSync(new URL('../histories/scanToken.json', import.meta.url), 'utf8'),
  ) as {
    events: { workflowExecutionCompletedEventAttributes?: { result: { payloads: { data: string }[] } } }[];
  };
  const completed = history.events.at(-1)?.workflowExecutionCompletedEventAttributes;
  return ScanResult.parse(
    JSON.parse(Buffer.from(completed?.result.payloads[0]?.data ?? '', 'base64').toString()),
  );
}
