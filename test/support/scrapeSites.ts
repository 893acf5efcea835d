import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PROXY_EGRESS_ADDRESS } from './connectProxy.ts';

/**
 * Local web sites for scraper tests, each on its own loopback port (so each is its own domain for
 * strategy memory, politeness and back-off). Every behaviour a real site has that the scraper
 * must handle is here in a few lines: static content, client rendering, a login cookie, a JS
 * challenge, headless detection, a WAF that blocks everything, a slow origin, a redirect to the
 * cloud metadata address, and a target that rate-limits.
 */
type SiteName =
  | 'static'
  | 'app'
  | 'members'
  | 'jswall'
  | 'headless'
  | 'blocked'
  | 'slow'
  | 'redirector'
  | 'ratelimited'
  | 'proxyonly'
  | 'scroll'
  | 'consent'
  | 'crawldelay';

/** The proxy-only site serves connections from the test proxy's exit address and blocks the rest. */
const PROXY_EXIT_ADDRESS = PROXY_EGRESS_ADDRESS;

export interface ScrapeSites {
  url(site: SiteName, path?: string): string;
  host(site: SiteName): string;
  /** Requests each site received, by path. */
  hits(site: SiteName): string[];
  close(): Promise<void>;
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

const STATIC_PAGE = `<!doctype html><html lang="en"><head><title>Vigil fixture: engine costs</title>
<meta name="description" content="What each scraping engine costs"></head><body>
<nav><a href="/">Home</a><a href="/about">About us</a></nav>
<main><h1>Engine costs</h1><p>Plain HTTP is <strong>cheap</strong>; read <a href="/docs/browsers">the browser notes</a>.</p>
<table><tr><th>Tier</th><th>Cost</th></tr><tr><td>http</td><td>1</td></tr><tr><td>browser</td><td>10</td></tr></table></main>
<footer>Fixture footer</footer></body></html>`;

const html = (
  response: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) => response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

const cookiesOf = (request: http.IncomingMessage) =>
  Object.fromEntries(
    (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair) => pair.length === 2),
  ) as Record<string, string>;

const SITES: Record<SiteName, Handler> = {
  static: (request, response) => {
    if (request.url === '/data.json') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"tokens":[{"symbol":"VGL","risk":12}]}');
      return;
    }
    html(response, 200, STATIC_PAGE);
  },
  // Rendered by the client after a short delay: plain HTTP sees an empty shell.
  app: (_request, response) =>
    html(
      response,
      200,
      `<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>
setTimeout(() => { document.getElementById('root').innerHTML = '<h1 id="ready">Rendered by the client</h1><p>Token list loaded.</p>'; }, 300);
</script></body></html>`,
    ),
  // /login sets an HttpOnly session cookie; /members needs it.
  members: (request, response) => {
    if (request.url === '/login') {
      html(
        response,
        200,
        '<html><body><main><h1>Signed in</h1><p>Welcome back. Your session is open now; the members area is yours to read.</p></main></body></html>',
        {
          'set-cookie': 'sid=s3cr3t-session; HttpOnly; Path=/; SameSite=Lax',
        },
      );
      return;
    }
    if (cookiesOf(request).sid === 's3cr3t-session') {
      html(
        response,
        200,
        '<html><body><main><h1>Members area</h1><p id="secret">The members-only report says the vault opens at noon.</p></main></body></html>',
      );
      return;
    }
    html(
      response,
      401,
      '<html><body><main><h1>Please sign in</h1><p>This page is for members; sign in first to read it.</p></main></body></html>',
    );
  },
  // A JavaScript challenge: a browser runs it and gets through, plain HTTP never does.
  jswall: (request, response) => {
    if (cookiesOf(request).wall === 'passed') {
      html(
        response,
        200,
        '<html><head><title>Behind the wall</title></head><body><main><h1>Behind the wall</h1><p>Only clients that run JavaScript read this paragraph.</p></main></body></html>',
      );
      return;
    }
    html(
      response,
      403,
      `<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing the site.</p>
<script>document.cookie = 'wall=passed; path=/'; setTimeout(() => location.reload(), 100);</script></body></html>`,
    );
  },
  // Headless detection: a plain headless browser gets a captcha, a hardened one the content.
  headless: (_request, response) =>
    html(
      response,
      200,
      `<!doctype html><html><head><title>Detector</title></head><body><div id="root"></div><script>
const headless = navigator.webdriver || /HeadlessChrome/.test(navigator.userAgent) || navigator.plugins.length === 0;
document.getElementById('root').innerHTML = headless
  ? '<div class="cf-' + 'turnstile" data-sitekey="x"></div><p>Verify you are human.</p>'
  : '<h1 id="human">Welcome, human</h1><p>The hardened browser passed the headless checks.</p>';
</script></body></html>`,
    ),
  // A WAF that blocks everyone.
  blocked: (_request, response) =>
    html(
      response,
      403,
      '<html><head><title>Access Denied</title></head><body><h1>Access Denied</h1><div class="g-recaptcha" data-sitekey="x"></div></body></html>',
    ),
  // Never answers: the request's deadline must end it.
  slow: () => undefined,
  redirector: (request, response) => {
    if (request.url === '/to-metadata') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    }
    if (request.url === '/to-mapped-loopback') {
      response.writeHead(302, { location: 'http://[::ffff:127.0.0.2]/admin' }).end();
      return;
    }
    // A page whose script navigates the browser to another loopback address (not allowlisted).
    html(
      response,
      200,
      `<html><body><p id="start">Redirecting you to the admin console of this network.</p><script>location.href = 'http://127.0.0.2:${String(request.socket.localPort ?? 0)}/admin';</script></body></html>`,
    );
  },
  ratelimited: (_request, response) =>
    html(response, 429, '<html><body><h1>Too many requests</h1></body></html>', { 'retry-after': '7' }),
  // Blocks every client but the proxy's exit address, as sites block datacentre IPs.
  proxyonly: (request, response) => {
    if (request.socket.remoteAddress !== PROXY_EXIT_ADDRESS) {
      html(
        response,
        403,
        '<html><head><title>Access Denied</title></head><body><h1>Access Denied</h1><p>Your IP address has been blocked.</p></body></html>',
      );
      return;
    }
    html(
      response,
      200,
      '<html><head><title>Exit report</title></head><body><main><h1>Exit report</h1><p>Only requests through the residential exit read this report about liquidity moving between pools.</p></main></body></html>',
    );
  },
  // The article renders only as the reader scrolls: each time the sentinel is reached, more text.
  scroll: (_request, response) =>
    html(
      response,
      200,
      `<!doctype html><html><head><title>Long read</title></head><body><main id="story"></main><div id="sentinel" style="height:10px"></div><script>
let part = 0;
const story = document.getElementById('story');
const more = () => { if (part >= 3) return; part++; setTimeout(() => {
  story.insertAdjacentHTML('beforeend', '<p>Part ' + part + ' of the long read explains how the pool was drained, block by block, while holders waited.</p>' + '<div style="height:1500px"></div>');
}, 50); };
new IntersectionObserver((entries) => { if (entries.some((entry) => entry.isIntersecting)) more(); }).observe(document.getElementById('sentinel'));
</script></body></html>`,
    ),
  // A consent wall: until it is accepted (a cookie, then a reload), the article is not served.
  consent: (request, response) => {
    if (cookiesOf(request).consent === 'yes') {
      html(
        response,
        200,
        '<html><head><title>Governance vote</title></head><body><main><h1 id="article">Governance vote</h1><p>The treasury proposal passed with sixty percent of the votes cast.</p></main></body></html>',
      );
      return;
    }
    html(
      response,
      200,
      `<html><head><title>Privacy choices</title></head><body><div class="consent-wall" role="dialog" aria-modal="true"><p>We and our partners use cookies to store and access information on your device.</p>
<button id="reject">Reject all</button><button id="accept">Accept all</button></div><script>
document.getElementById('accept').addEventListener('click', () => { document.cookie = 'consent=yes; path=/'; location.reload(); });
</script></body></html>`,
    );
  },
  // robots.txt asks for a second between requests.
  crawldelay: (request, response) => {
    if (request.url === '/robots.txt') {
      response
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nCrawl-delay: 30\nDisallow: /private\n');
      return;
    }
    html(response, 200, STATIC_PAGE);
  },
};

export async function startScrapeSites(): Promise<ScrapeSites> {
  const servers = new Map<
    SiteName,
    { server: http.Server; port: number; hits: string[]; sockets: Set<Socket> }
  >();
  await Promise.all(
    (Object.keys(SITES) as SiteName[]).map(async (name) => {
      const hits: string[] = [];
      const sockets = new Set<Socket>();
      const server = http.createServer((request, response) => {
        hits.push(request.url ?? '/');
        SITES[name](request, response);
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.set(name, { server, port: (server.address() as AddressInfo).port, hits, sockets });
    }),
  );
  const get = (name: SiteName) => {
    const entry = servers.get(name);
    if (!entry) throw new Error(`no site ${name}`);
    return entry;
  };
  return {
    url: (name, path = '/') => `http://127.0.0.1:${get(name).port}${path}`,
    host: (name) => `127.0.0.1:${get(name).port}`,
    hits: (name) => get(name).hits,
    async close() {
      await Promise.all(
        [...servers.values()].map(
          ({ server, sockets }) =>
            new Promise<void>((resolve) => {
              for (const socket of sockets) socket.destroy();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
