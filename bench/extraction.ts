// Main-content extraction quality and speed, scored by the public article-extraction benchmark's
// own evaluate.py, beside Trafilatura and Readability.js run in the same run on the same machine.
//   node bench/extraction.ts --benchmark <checkout of scrapinghub/article-extraction-benchmark>
//        [--python <python with trafilatura>] [--repeat 3] [--workers 2]
// The benchmark's pages are never copied into this repository: pass its folder (html/*.html.gz,
// ground-truth.json, evaluate.py). The held-out set (bench/extraction/heldout) is scored the same way.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { ScrapeFormat } from '../core/scrape/outcome.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { convertPage } from '../scraper/convert/convert.ts';
import { writeExtractionReport, type DatasetResult, type ExtractorRun } from './extraction/report.ts';
import { stripMarkdown } from './extraction/stripMarkdown.ts';
import type { ExtractionBatch } from './extraction/worker.ts';

const { values } = parseArgs({
  options: {
    benchmark: { type: 'string' },
    heldout: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'extraction', 'heldout') },
    python: { type: 'string', default: 'python3' },
    repeat: { type: 'string', default: '3' },
    workers: { type: 'string', default: String(cpus().length) },
    only: { type: 'string', default: '' },
    out: { type: 'string', default: path.join(REPO_ROOT, 'bench', 'results') },
  },
});
if (!values.benchmark || !existsSync(path.join(values.benchmark, 'evaluate.py'))) {
  console.error(
    'Pass --benchmark <folder>: a checkout of github.com/scrapinghub/article-extraction-benchmark ' +
      '(html/*.html.gz, ground-truth.json, evaluate.py). Trafilatura runs when `--python` has it ' +
      '(pip install trafilatura lxml_html_clean).',
  );
  process.exit(2);
}
const benchmarkDir = values.benchmark;
const repeat = Number(values.repeat);
const workerCount = Number(values.workers);
const only = values.only ? values.only.split(',') : undefined;

interface Page {
  key: string;
  html: string;
  url: string;
}

function loadDataset(dir: string): { pages: Page[]; truth: Record<string, { url?: string }> } {
  const truth = JSON.parse(readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url?: string }
  >;
  const files = new Set(readdirSync(path.join(dir, 'html')));
  const pages = Object.entries(truth).map(([key, entry]) => {
    const gz = `${key}.html.gz`;
    const html = files.has(gz)
      ? gunzipSync(readFileSync(path.join(dir, 'html', gz))).toString('utf8')
      : readFileSync(path.join(dir, 'html', `${key}.html`), 'utf8');
    return { key, html, url: entry.url ?? `https://example.com/${key}` };
  });
  return { pages, truth };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0;

/** Runs an in-process extractor `repeat` times; keeps the last output and the median time. */
function timed(
  pages: Page[],
  extract: (page: Page) => string,
): { output: Record<string, string>; runs: number[]; cpu: number[] } {
  const runs: number[] = [];
  const cpu: number[] = [];
  let output: Record<string, string> = {};
  for (let run = 0; run < repeat; run++) {
    const current: Record<string, string> = {};
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const page of pages) current[page.key] = extract(page);
    cpu.push(cpuMs(process.cpuUsage(cpuBefore)));
    runs.push(performance.now() - started);
    output = current;
  }
  return { output, runs, cpu };
}

/**
 * CPU time (user + system, every thread of this process) in ms. Pages per CPU-second is the
 * figure a busy machine cannot distort much: wall time counts the time other processes held the
 * cores, CPU time only the work done; on an idle machine one thread's pages/s approaches it.
 */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

const vigil = (format: ScrapeFormat) => (page: Page) =>
  convertPage({
    format,
    body: page.html,
    contentType: 'text/html; charset=utf-8',
    url: page.url,
    headers: {},
  }) as string;

function readability(page: Page): string {
  const { document } = parseHTML(page.html);
  return new Readability(document).parse()?.textContent?.trim() ?? '';
}

/** Pages/s with the pages spread over `workerCount` threads (warmed up first). */
async function acrossWorkers(
  pages: Page[],
  format: ScrapeFormat,
): Promise<{ runs: number[]; cpu: number[] }> {
  const workers = Array.from(
    { length: workerCount },
    () => new Worker(new URL('./extraction/worker.ts', import.meta.url)),
  );
  const send = (worker: Worker, batch: ExtractionBatch) =>
    new Promise<Record<string, string>>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(batch);
    });
  try {
    // Warm-up: every worker converts every page once, so the timed runs meet JIT-compiled code.
    await Promise.all(workers.map((worker) => send(worker, { format, pages })));
    const runs: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < repeat; run++) {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await Promise.all(
        workers.map((worker, index) =>
          send(worker, { format, pages: pages.filter((_, at) => at % workerCount === index) }),
        ),
      );
      cpu.push(cpuMs(process.cpuUsage(cpuBefore)));
      runs.push(performance.now() - started);
    }
    return { runs, cpu };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

async function runDataset(name: string, dir: string): Promise<DatasetResult> {
  const { pages, truth } = loadDataset(dir);
  const work = mkdtempSync(path.join(tmpdir(), `extraction-${name}-`));
  mkdirSync(path.join(work, 'output'));
  writeFileSync(path.join(work, 'ground-truth.json'), JSON.stringify(truth));
  const runs: ExtractorRun[] = [];
  const write = (extractor: string, version: string, output: Record<string, string>) =>
    writeFileSync(
      path.join(work, 'output', `${extractor}.json`),
      JSON.stringify({
        version,
        output: Object.fromEntries(Object.entries(output).map(([key, text]) => [key, { articleBody: text }])),
      }),
    );
  const wanted = (extractor: string) => !only || only.includes(extractor);
  const perSecond = (ms: number) => Math.round((pages.length / (ms / 1000)) * 10) / 10;

  for (const format of ['text', 'markdown'] as const) {
    const extractor = `vigil_${format}`;
    if (!wanted(extractor)) continue;
    const { output, runs: ms, cpu } = timed(pages, vigil(format));
    write(extractor, 'this commit', format === 'markdown' ? mapValues(output, stripMarkdown) : output);
    const parallel = workerCount > 1 ? await acrossWorkers(pages, format) : undefined;
    runs.push({
      extractor,
      pages_per_second: perSecond(median(ms)),
      runs_pages_per_second: ms.map(perSecond),
      pages_per_cpu_second: perSecond(median(cpu)),
      ...(parallel
        ? {
            workers: workerCount,
            workers_pages_per_second: perSecond(median(parallel.runs)),
            workers_runs: parallel.runs.map(perSecond),
            workers_pages_per_cpu_second: perSecond(median(parallel.cpu)),
          }
        : {}),
    });
    console.log(`[extraction] ${name} ${extractor}: ${perSecond(median(ms))} pages/s in one thread`);
  }
  if (wanted('readability_js')) {
    const { output, runs: ms, cpu } = timed(pages, readability);
    write('readability_js', '0.6.0 + linkedom', output);
    runs.push({
      extractor: 'readability_js',
      pages_per_second: perSecond(median(ms)),
      runs_pages_per_second: ms.map(perSecond),
      pages_per_cpu_second: perSecond(median(cpu)),
    });
  }
  for (const [extractor, flags] of [
    ['trafilatura', []],
    ['trafilatura_precision', ['--favor-precision']],
  ] as const) {
    if (!wanted(extractor)) continue;
    const pagesFile = path.join(work, 'pages.json');
    if (!existsSync(pagesFile))
      writeFileSync(
        pagesFile,
        JSON.stringify(Object.fromEntries(pages.map((page) => [page.key, page.html]))),
      );
    const out = path.join(work, 'output', `${extractor}.json`);
    const ms: number[] = [];
    const cpu: number[] = [];
    try {
      for (let run = 0; run < repeat; run++) {
        execFileSync(
          values.python,
          [path.join(REPO_ROOT, 'bench', 'extraction', 'trafilatura_run.py'), pagesFile, out, ...flags],
          { stdio: 'inherit' },
        );
        const timing = JSON.parse(readFileSync(`${out}.timing`, 'utf8')) as {
          seconds: number;
          cpu_seconds: number;
        };
        ms.push(timing.seconds * 1000);
        cpu.push(timing.cpu_seconds * 1000);
      }
    } catch {
      console.error(`[extraction] ${extractor} skipped: ${values.python} cannot run trafilatura`);
      continue;
    }
    runs.push({
      extractor,
      pages_per_second: perSecond(median(ms)),
      runs_pages_per_second: ms.map(perSecond),
      pages_per_cpu_second: perSecond(median(cpu)),
    });
  }
  const scored = JSON.parse(
    execFileSync(
      values.python,
      [path.join(REPO_ROOT, 'bench', 'extraction', 'score.py'), benchmarkDir, work],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    ).toString(),
  ) as Record<
    string,
    {
      version: string;
      metrics: Record<string, number>;
      per_page: Record<string, { precision: number; recall: number; f1: number }>;
    }
  >;
  // The benchmark's own command line, verbatim, for the record.
  const evaluateTable = execFileSync(
    values.python,
    [path.join(benchmarkDir, 'evaluate.py'), '--n-bootstrap', '200'],
    {
      cwd: work,
    },
  ).toString();
  return {
    name,
    pages: pages.length,
    work_dir: work,
    evaluate_table: evaluateTable,
    extractors: runs.map((run) => ({
      ...run,
      ...(scored[run.extractor] ?? { version: '', metrics: {}, per_page: {} }),
    })),
  };
}

function mapValues(record: Record<string, string>, map: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

mkdirSync(values.out, { recursive: true });
const loadBefore = loadavg()[0] ?? 0;
const datasets = [await runDataset('benchmark', benchmarkDir), await runDataset('heldout', values.heldout)];
writeExtractionReport(values.out, {
  measured_at: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version },
  load_average: { before: loadBefore, after: loadavg()[0] ?? 0 },
  repeat,
  datasets,
});
for (const dataset of datasets) console.log(`\n${dataset.name}\n${dataset.evaluate_table}`);
