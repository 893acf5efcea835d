import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './certificates.ts';

export interface TemporalFront {
  /** host:port clients dial. */
  address: string;
  /** gRPC calls that reached Temporal through the front. */
  forwarded(): number;
  close(): Promise<void>;
}

/**
 * What stands in front of a deployment's Temporal in these tests, since the dev server speaks
 * neither mTLS nor API keys: an HTTP/2 front that authenticates each caller the way a Temporal
 * cluster (mTLS, `requireClientAuth`) or Temporal Cloud (a bearer API key) does, and forwards
 * the gRPC streams of those it accepts, headers, bodies and trailers alike, to the real dev server.
 */
export async function startTemporalFront(
  upstream: string,
  auth: { mtls: TestPki } | { apiKey: string },
): Promise<TemporalFront> {
  const session = http2.connect(`http://${upstream}`);
  session.on('error', () => undefined);
  let forwarded = 0;
  const onStream = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
    stream.on('error', () => undefined);
    if ('apiKey' in auth && headers.authorization !== `Bearer ${auth.apiKey}`) {
      // A trailers-only gRPC answer: UNAUTHENTICATED (16), as Temporal Cloud answers a bad key.
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': '16',
          'grpc-message': 'unauthenticated',
        },
        { endStream: true },
      );
      return;
    }
    forwarded++;
    const outgoing: http2.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers))
      if (!name.startsWith(':') || name === ':method' || name === ':path') outgoing[name] = value;
    const call = session.request(outgoing, { endStream: false });
    call.on('error', () => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
    call.on('response', (response) => stream.respond({ ...response }, { waitForTrailers: true }));
    let trailers: http2.OutgoingHttpHeaders = {};
    call.on('trailers', (received) => (trailers = { ...received }));
    stream.on('wantTrailers', () => stream.sendTrailers(trailers));
    call.pipe(stream);
    stream.pipe(call);
    stream.on('close', () => call.close());
  };
  const server =
    'mtls' in auth
      ? http2.createSecureServer({
          cert: auth.mtls.server.cert,
          key: auth.mtls.server.key,
          ca: auth.mtls.ca,
          requestCert: true,
          rejectUnauthorized: true,
          allowHTTP1: false,
        })
      : http2.createServer();
  server.on('stream', onStream);
  server.on('sessionError', () => undefined);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (incoming: http2.ServerHttp2Session) => {
    sessions.add(incoming);
    incoming.on('close', () => sessions.delete(incoming));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    address: `127.0.0.1:${port}`,
    forwarded: () => forwarded,
    close: async () => {
      for (const incoming of sessions) incoming.destroy();
      session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
