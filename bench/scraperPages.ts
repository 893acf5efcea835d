import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * A realistic article page (~14 KB: navigation, a long body with headings, lists, a table, code,
 * links and images, a footer, scripts and styles) and a client-rendered variant, served on
 * loopback for the scraper benchmark.
 */
export function articlePage(index: number): string {
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) =>
      `<p>Paragraph ${i} of article ${index}: liquidity moved between pools while the <a href="/tokens/${i}">token ${i}</a> ` +
      `kept its <em>tax</em> at ${i % 7}% and the owner key stayed <strong>unrenounced</strong>; analysts flagged it twice.</p>`,
  ).join('\n');
  const rows = Array.from(
    { length: 20 },
    (_, i) =>
      `<tr><td>0x${(i * 7919).toString(16).padStart(6, '0')}</td><td>${i * 3}</td><td>${(i * 1.7).toFixed(2)}</td></tr>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${index}</title>
<meta name="description" content="Benchmark article ${index}"><style>${'.x{color:red}'.repeat(200)}</style>
<script>window.analytics = ${JSON.stringify({ id: index, tags: Array.from({ length: 50 }, (_, i) => `tag${i}`) })};</script></head>
<body><header class="site-header"><nav><a href="/">Home</a><a href="/markets">Markets</a><a href="/alerts">Alerts</a></nav></header>
<main><article><h1>Article ${index}</h1><h2>Summary</h2>${paragraphs}
<h2>Holders</h2><table><thead><tr><th>Holder</th><th>Share</th><th>Score</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Steps</h2><ol><li>Read the pool</li><li>Simulate a sell</li><li>Score</li></ol>
<pre><code class="language-ts">const risk = score(checks);</code></pre><img src="/img/chart-${index}.png" alt="chart"></article></main>
<aside class="sidebar"><h3>Related</h3><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></aside>
<footer><p>Copyright Vigil benchmark</p></footer><script>console.log('loaded')</script></body></html>`;
}

const CLIENT_RENDERED = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>
document.getElementById('root').innerHTML = '<main><h1 id="ready">Rendered</h1>' + Array.from({ length: 30 }, (_, i) => '<p>Row ' + i + ' rendered by the client with enough text to read.</p>').join('') + '</main>';
</script></body></html>`;

/** Serves the pages in this process (the benchmark runs it as a child: see startBenchSite). */
export async function serveBenchSite(): Promise<http.Server> {
  const pages = Array.from({ length: 50 }, (_, i) => articlePage(i));
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (url.startsWith('/app')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CLIENT_RENDERED);
      return;
    }
    const index = Number(/\/article\/(\d+)/.exec(url)?.[1] ?? 0) % pages.length;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[index]);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * The site in a process of its own, as a target would be: serving pages must not share the
 * scraper's event loop.
 */
export async function startBenchSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./scraperSite.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('exit', (code) => reject(new Error(`bench site exited (${code})`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
