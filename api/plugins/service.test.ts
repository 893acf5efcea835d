import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createService } from './service.ts';

const rawConnection = async (port: number): Promise<Socket> => {
  const socket = connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  return socket;
};

describe('createService shutdown', () => {
  it('ends a connection that never sent a request at once, and one with a request in flight with its answer', async () => {
    const app = await createService({ publicUrl: 'http://service.test', logger: false });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    app.get('/slow', async () => {
      entered();
      await held;
      return { done: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };

    // One connection sends nothing; another has a request in flight when closing starts.
    const silent = await rawConnection(port);
    const silentClosed = once(silent, 'close');
    const busy = await rawConnection(port);
    let answer = '';
    busy.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const busyClosed = once(busy, 'close');
    busy.write('GET /slow HTTP/1.1\r\nhost: service.test\r\n\r\n');
    await inFlight;

    const closed = app.close();
    await silentClosed;
    // The request in flight still gets its answer.
    release();
    await Promise.all([closed, busyClosed]);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('{"done":true}');
  }, 20_000);
});
