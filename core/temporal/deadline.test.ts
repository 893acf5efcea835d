import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../test/support/fixtures.ts';
import { isDeadlinePassed } from './deadline.ts';

describe('telling a waited-out deadline from a failed call', () => {
  const env = isolatedEnv();
  const connecting = Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  afterAll(async () => (await connecting).close());

  /** A workflow no worker will run: waiting for its result is a long poll that never ends by itself. */
  async function unanswered() {
    const connection = await connecting;
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' });
    const handle = await client.workflow.start('noSuchWorkflow', {
      taskQueue: `nobody-polls-${Date.now()}`,
      workflowId: `deadline-${Date.now()}-${Math.random()}`,
      args: [],
    });
    return { connection, handle };
  }

  it('counts DEADLINE_EXCEEDED, and CANCELLED once the deadline has passed, as the wait running out', async () => {
    const { connection, handle } = await unanswered();
    const deadline = Date.now() + 300;
    const timedOut = await connection.withDeadline(deadline, () => handle.result()).catch((e: unknown) => e);
    expect(isDeadlinePassed(timedOut, deadline)).toBe(true);

    // The call cancelled as grpc-js sometimes reports a deadline: a real CANCELLED from the client.
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const cancelled = await connection
      .withAbortSignal(abort.signal, () => handle.result())
      .catch((e: unknown) => e);
    expect(isDeadlinePassed(cancelled, Date.now() - 1)).toBe(true);
    // Cancelled well before its deadline, it is not a timeout: the caller answers that the engine failed.
    expect(isDeadlinePassed(cancelled, Date.now() + 60_000)).toBe(false);
    expect(isDeadlinePassed(new Error('rejected'), Date.now() - 1)).toBe(false);
    await handle.terminate('test over');
  });
});
