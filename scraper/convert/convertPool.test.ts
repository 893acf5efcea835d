import { afterAll, describe, expect, it } from 'vitest';
import { convertWithExtras } from './convert.ts';
import { ConvertPool } from './convertPool.ts';

const page = (i: number) => ({
  format: 'markdown' as const,
  body: `<html><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a></nav><article><h2>Part ${i}</h2><p>${'Liquidity moved between pools, and holders waited. '.repeat(8)}</p><p><a href="/t/${i}?utm_source=x">token ${i}</a></p></article></body></html>`,
  contentType: 'text/html',
  url: `https://news.example/${i}`,
  headers: {},
  options: { onlyMainContent: true, includeLinks: true, chunks: true as const },
});

describe('ConvertPool', () => {
  const pool = new ConvertPool(2);
  afterAll(() => pool.close());

  it('converts on its threads exactly as in-process, many pages at once', async () => {
    const inputs = Array.from({ length: 24 }, (_, i) => page(i));
    const converted = await Promise.all(inputs.map((input) => pool.convert(input)));
    expect(pool.threads).toBe(2);
    converted.forEach((result, i) => {
      expect(result).toEqual(convertWithExtras(inputs[i] ?? page(0)));
      expect(result.links).toEqual([{ text: `token ${i}`, href: `https://news.example/t/${i}` }]);
    });
  });

  it('converts in-process with no threads, and refuses work once closed', async () => {
    const inline = new ConvertPool(0);
    expect(await inline.convert(page(1))).toEqual(convertWithExtras(page(1)));
    const closing = new ConvertPool(1);
    await closing.close();
    await expect(closing.convert(page(2))).rejects.toThrow(/closed/);
  });
});
