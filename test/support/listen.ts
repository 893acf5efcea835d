import type { AddressInfo } from 'node:net';
import type { VigilApp } from '../../api/plugins/service.ts';

/** Serves an app on a free loopback port, so a test talks to it over real HTTP; answers its base URL. */
export async function listenOnLoopback(app: VigilApp): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
