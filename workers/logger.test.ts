import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { workerLogger } from './logger.ts';

const capture = () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
};

describe('the worker logger', () => {
  it('writes the SDK’s entries as JSON lines with their context, errors serialised and their URLs redacted', () => {
    const { lines, stream } = capture();
    const { temporal } = workerLogger('info', stream);
    const failure = new Error('fetch failed: https://rpc.example/v2/SECRETKEY123 answered 500');
    temporal.warn('Activity failed', {
      activityType: 'scanEngine',
      workflowId: 'scan:devnet:0xabc',
      error: failure,
    });
    temporal.info('Worker state changed', { state: 'RUNNING' });
    expect(lines).toHaveLength(1);
    const [entry] = lines;
    expect(entry).toMatchObject({
      level: 40,
      msg: 'Activity failed',
      service: 'workers',
      activityType: 'scanEngine',
      workflowId: 'scan:devnet:0xabc',
      err: { type: 'Error' },
    });
    expect(JSON.stringify(entry)).not.toContain('SECRETKEY123');
  });

  it('passes the SDK’s debug entries through when LOG_LEVEL asks for them', () => {
    const { lines, stream } = capture();
    const { temporal, log } = workerLogger('debug', stream);
    temporal.debug('Poll', { taskQueue: 'scanner' });
    log.info({ queues: ['scanner'] }, 'vigil worker: polling scanner');
    expect(lines.map((line) => line.msg)).toEqual(['Poll', 'vigil worker: polling scanner']);
  });
});
