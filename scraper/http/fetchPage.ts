import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { CookieJar } from 'tough-cookie';
import { type Dispatcher, request } from 'undici';
import type { EgressGuard } from '../ssrf/guard.ts';
import { decodeBody } from './decode.ts';

/** The target could not be fetched within the scraper's limits; `reason` is stable snake_case. */
export class FetchFailedError extends Error {
  override readonly name = 'FetchFailedError';
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface FetchPageOptions {
  url: string;
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  guard: EgressGuard;
  signal: AbortSignal;
  maxBytes: number;
  maxRedirects: number;
  jar?: CookieJar;
}

export interface FetchedPage {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie is consumed by the jar). */
  headers: Record<string, string>;
  finalUrl: string;
  contentType: string;
  body: string;
  redirects: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET a page through the guarded dispatcher, following redirects by hand so that every hop is
 * checked again (scheme, credentials, resolved addresses), at most `maxRedirects` of them.
 * Bodies are decompressed and capped at `maxBytes` after decompression (no zip bombs), then
 * decoded in their declared charset.
 */
export async function fetchPage(options: FetchPageOptions): Promise<FetchedPage> {
  let url = options.guard.checkUrl(options.url);
  for (let hop = 0; ; hop++) {
    const headers = { ...options.headers };
    if (options.jar) {
      const cookie = await options.jar.getCookieString(url.href);
      if (cookie) headers.cookie = cookie;
    }
    const response = await request(url, {
      method: 'GET',
      headers,
      dispatcher: options.dispatcher,
      signal: options.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const setCookie = response.headers['set-cookie'];
    if (options.jar && setCookie) {
      for (const line of Array.isArray(setCookie) ? setCookie : [setCookie])
        await options.jar.setCookie(line, url.href, { ignoreError: true });
    }
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
      response.body.resume();
      if (hop >= options.maxRedirects)
        throw new FetchFailedError('too_many_redirects', `more than ${options.maxRedirects} redirects`);
      url = options.guard.checkUrl(new URL(location, url).href);
      continue;
    }
    const flat = flattenHeaders(response.headers);
    const contentType = flat['content-type'] ?? '';
    const bytes = await readCapped(response.body, flat['content-encoding'], options.maxBytes);
    return {
      status: response.statusCode,
      headers: flat,
      finalUrl: url.href,
      contentType,
      body: decodeBody(contentType, bytes),
      redirects: hop,
    };
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'set-cookie') continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
    case 'deflate':
      return zlib.createUnzip();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return zlib.createZstdDecompress();
    default:
      return undefined;
  }
}

async function readCapped(body: Readable, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  const stream: Readable = decoder ? body.pipe(decoder) : body;
  if (decoder) body.on('error', (error) => stream.destroy(error));
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      total += buffer.length;
      if (total > maxBytes) {
        throw new FetchFailedError('body_too_large', `the body is larger than ${maxBytes} bytes`);
      }
      chunks.push(buffer);
    }
  } catch (error) {
    body.destroy();
    stream.destroy();
    if (error instanceof FetchFailedError) throw error;
    if (
      (error as { code?: string }).code?.startsWith('Z_') ||
      (error as { code?: string }).code === 'ERR__ERROR'
    )
      throw new FetchFailedError('bad_encoding', `the body is not valid ${encoding ?? ''} data`);
    throw error;
  }
  return Buffer.concat(chunks);
}
