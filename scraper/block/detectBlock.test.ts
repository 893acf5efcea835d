import { describe, expect, it } from 'vitest';
import { detectBlock, parseRetryAfter } from './detectBlock.ts';

const page = (
  status: number,
  body: string,
  headers: Record<string, string> = {},
  contentType = 'text/html',
) => ({
  status,
  headers,
  contentType,
  body,
});
const ARTICLE = `<html><body><main><h1>Report</h1><p>${'A real paragraph of text about tokens. '.repeat(10)}</p></main></body></html>`;

describe('detectBlock', () => {
  it('passes real pages and real errors through', () => {
    expect(detectBlock(page(200, ARTICLE)).outcome).toBe('ok');
    expect(detectBlock(page(404, ARTICLE))).toEqual({ outcome: 'ok', reason: 'HTTP 404' });
    expect(detectBlock(page(403, '{"error":"forbidden"}', {}, 'application/json')).outcome).toBe('ok');
  });

  it('treats 403/503 HTML, challenge headers and vendor markers as blocks', () => {
    expect(detectBlock(page(403, '<html><title>Access Denied</title></html>'))).toEqual({
      outcome: 'blocked',
      reason: 'HTTP 403 access_denied',
    });
    expect(detectBlock(page(503, ARTICLE)).outcome).toBe('blocked');
    expect(detectBlock(page(200, ARTICLE, { 'cf-mitigated': 'challenge' })).reason).toBe(
      'cloudflare_challenge',
    );
    expect(
      detectBlock(page(200, `${ARTICLE}<script src="https://geo.captcha-delivery.com/c.js"></script>`))
        .reason,
    ).toBe('datadome_captcha');
    expect(
      detectBlock(page(200, '<html><title>Just a moment...</title><body>Checking your browser</body></html>'))
        .reason,
    ).toMatch(/challenge|no_visible_text/);
  });

  it('does not mistake a contact form with reCAPTCHA on a real page for a block', () => {
    expect(detectBlock(page(200, `${ARTICLE}<div class="g-recaptcha"></div>`)).outcome).toBe('ok');
  });

  it('tells a client-rendered shell (needs JS) from a block, and calls it a block once rendered', () => {
    const shell = '<html><body><div id="root"></div><script src="/app.js"></script></body></html>';
    expect(detectBlock(page(200, shell))).toEqual({ outcome: 'needs_js', reason: 'script_only' });
    expect(detectBlock({ ...page(200, shell), rendered: true })).toEqual({
      outcome: 'blocked',
      reason: 'script_only',
    });
    expect(detectBlock({ ...page(200, shell), rendered: true, selectorFound: true }).outcome).toBe('ok');
    expect(detectBlock(page(200, '')).reason).toBe('empty_body');
  });

  it('reads 429 and its Retry-After', () => {
    expect(detectBlock(page(429, 'slow down', { 'retry-after': '12' }))).toEqual({
      outcome: 'rate_limited',
      reason: 'HTTP 429',
      retryAfterS: 12,
    });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, bounded, with a default', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('999999', now)).toBe(3_600);
    expect(parseRetryAfter(undefined, now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBe(30);
  });
});
