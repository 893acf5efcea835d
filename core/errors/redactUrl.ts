/**
 * Makes a URL safe for logs and messages. RPC providers put API keys in the path
 * (`/v2/<key>`), in the query (`?apikey=`) or in user info, so all three are masked; the scheme,
 * host and port stay readable so an operator can still tell providers apart.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '<invalid url>';
  }
  const userInfo = url.username || url.password ? '***@' : '';
  const path = url.pathname
    .split('/')
    .map((segment) => (isHarmlessSegment(segment) ? segment : '***'))
    .join('/');
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=***`).join('&');
  return `${url.protocol}//${userInfo}${url.host}${path === '/' ? '' : path}${query ? `?${query}` : ''}`;
}

function isHarmlessSegment(segment: string): boolean {
  // Short words and version markers ("rpc", "v2", "mainnet") carry no secret.
  return segment === '' || /^v\d{1,2}$/i.test(segment) || /^[a-z-]{1,16}$/i.test(segment);
}
