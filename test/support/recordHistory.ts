import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { temporal } from '@temporalio/proto';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';

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
