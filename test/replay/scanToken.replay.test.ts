import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/stack/processes.ts';
import { loadWorkflowBundle } from '../../workers/workflowBundle.ts';

const historiesDir = fileURLToPath(new URL('../histories/', import.meta.url));
const histories = readdirSync(historiesDir).filter((file) => file.endsWith('.json'));
const load = (file: string) =>
  historyFromJSON(JSON.parse(readFileSync(path.join(historiesDir, file), 'utf8')));

// Recorded from real runs (RECORD_HISTORIES=1 npx vitest run test/integration/scanToken.test.ts).
// A change to workflow code that would break running scans fails here, offline.
describe('recorded workflow histories replay on the current workflow code', () => {
  it.each(histories)('%s', async (file) => {
    const workflowBundle = await loadWorkflowBundle(path.join(REPO_ROOT, '.data', 'cache'));
    await Worker.runReplayHistory({ workflowBundle }, load(file));
  });

  it('catches a non-deterministic change (the guard can fail)', async () => {
    const file = histories.find((name) => name.startsWith('scanToken'));
    if (!file) throw new Error('no scanToken history recorded');
    const changed = fileURLToPath(new URL('./fixtures/reorderedScanToken.ts', import.meta.url));
    await expect(Worker.runReplayHistory({ workflowsPath: changed }, load(file))).rejects.toBeInstanceOf(
      DeterminismViolationError,
    );
  });
});
