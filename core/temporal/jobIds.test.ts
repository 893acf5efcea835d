import { describe, expect, it } from 'vitest';
import { formatJobId, parseJobId, scanWorkflowId } from './jobIds.ts';

describe('job ids', () => {
  const workflowId = scanWorkflowId('devnet', '0x5FbDB2315678afecb367f032d93F642f64180aa3');
  const runId = '0190a4f1-6f3c-7b7e-9a4e-3f1c2b7d8e9f';

  it('round-trips workflow id and run id', () => {
    expect(parseJobId(formatJobId({ workflowId, runId }))).toEqual({ workflowId, runId });
  });

  it('rejects what Vigil could not have issued', () => {
    expect(parseJobId('nope')).toBeUndefined();
    expect(parseJobId(`${workflowId}:not-a-uuid`)).toBeUndefined();
    expect(parseJobId(`scan:devnet:../../etc:${runId}`)).toBeUndefined();
    expect(parseJobId(`${workflowId}:${runId}x`)).toBeUndefined();
  });
});
