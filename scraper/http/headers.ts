/** Vigil's own, honest user agent: the plain tier says who it is. */
export const PLAIN_USER_AGENT = 'Mozilla/5.0 (compatible; VigilScraper/1.0; +https://vigil.invalid/scraper)';

/** The desktop Chrome the fingerprint tier and the hardened browser present as. */
export const CHROME_VERSION = '156';
export const CHROME_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_VERSION}.0.0.0 Safari/537.36`;

export function plainHeaders(): Record<string, string> {
  return {
    'user-agent': PLAIN_USER_AGENT,
    accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
    'accept-encoding': 'gzip, deflate, br',
    'accept-language': 'en',
  };
}

/**
 * A top-level navigation of desktop Chrome, in Chrome's order: WAFs compare the user agent with
 * client hints, sec-fetch metadata and the header order. (TLS and HTTP/2 fingerprints are the
 * transport's; this tier offers HTTP/2 like Chrome but does not imitate Chrome's TLS hello.)
 */
export function browserLikeHeaders(): Record<string, string> {
  return {
    'sec-ch-ua': `"Chromium";v="${CHROME_VERSION}", "Google Chrome";v="${CHROME_VERSION}", "Not.A/Brand";v="99"`,
    'sec-ch-ua-mobile': '?0',
    'sec-ch-ua-platform': '"Linux"',
    'upgrade-insecure-requests': '1',
    'user-agent': CHROME_USER_AGENT,
    accept:
      'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    'sec-fetch-site': 'none',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-user': '?1',
    'sec-fetch-dest': 'document',
    'accept-encoding': 'gzip, deflate, br, zstd',
    'accept-language': 'en-US,en;q=0.9',
    priority: 'u=0, i',
  };
}
