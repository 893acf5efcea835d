import { describe, expect, it } from 'vitest';
import { cookiesFromJar, jarFromCookies, mergeCookies, type StoredCookie } from './cookies.ts';

const cookie = (name: string, value: string, extra: Partial<StoredCookie> = {}): StoredCookie => ({
  name,
  value,
  domain: 'example.com',
  path: '/',
  expires: -1,
  httpOnly: false,
  secure: false,
  sameSite: 'Lax',
  ...extra,
});

describe('session cookies', () => {
  it('round-trip through the HTTP jar, HttpOnly and domain cookies included', async () => {
    const jar = jarFromCookies([
      cookie('sid', 'abc', { httpOnly: true }),
      cookie('pref', 'dark', { domain: '.example.com' }),
    ]);
    expect(await jar.getCookieString('https://example.com/page')).toBe('sid=abc; pref=dark');
    // Host-only stays on the host; the domain cookie reaches subdomains.
    expect(await jar.getCookieString('https://www.example.com/')).toBe('pref=dark');
    await jar.setCookie('late=1; Max-Age=3600; Path=/', 'https://example.com/');
    const back = cookiesFromJar(jar);
    expect(back.find((entry) => entry.name === 'sid')).toMatchObject({
      httpOnly: true,
      domain: 'example.com',
      expires: -1,
    });
    expect(back.find((entry) => entry.name === 'pref')).toMatchObject({ domain: '.example.com' });
    expect(back.find((entry) => entry.name === 'late')?.expires).toBeGreaterThan(Date.now() / 1000);
  });

  it('drops expired cookies', async () => {
    const jar = jarFromCookies([cookie('old', '1', { expires: Math.floor(Date.now() / 1000) - 10 })]);
    expect(await jar.getCookieString('https://example.com/')).toBe('');
  });

  it('merges concurrent writers without losing either side’s new cookies', () => {
    const before = [cookie('sid', 'a')];
    const stored = [cookie('sid', 'a'), cookie('other', 'from-another-request')];
    const after = [cookie('sid', 'b'), cookie('mine', 'new')];
    const merged = mergeCookies(stored, before, after);
    expect(Object.fromEntries(merged.map((entry) => [entry.name, entry.value]))).toEqual({
      other: 'from-another-request',
      sid: 'b',
      mine: 'new',
    });
  });
});
