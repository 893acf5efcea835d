import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ExtractorRun {
  extractor: string;
  /** One thread (Trafilatura: one Python process), median of the runs. */
  pages_per_second: number;
  runs_pages_per_second: number[];
  /** Pages per second of CPU time (user + system, all threads), median of the runs. */
  pages_per_cpu_second: number;
  workers?: number;
  workers_pages_per_second?: number;
  workers_runs?: number[];
  workers_pages_per_cpu_second?: number;
}

interface ScoredRun extends ExtractorRun {
  version: string;
  metrics: Record<string, number>;
  per_page: Record<string, { precision: number; recall: number; f1: number }>;
}

export interface DatasetResult {
  name: string;
  pages: number;
  work_dir: string;
  evaluate_table: string;
  extractors: ScoredRun[];
}

export interface ExtractionReport {
  measured_at: string;
  machine: { cpus: number; node: string };
  load_average: { before: number; after: number };
  repeat: number;
  datasets: DatasetResult[];
}

const f3 = (value: number | undefined) => (value === undefined ? '' : value.toFixed(3));

/** bench/results/extraction.json (everything) and extraction.md (the tables). */
export function writeExtractionReport(dir: string, report: ExtractionReport): void {
  const json = {
    ...report,
    datasets: report.datasets.map(({ work_dir: _work, ...dataset }) => dataset),
  };
  writeFileSync(path.join(dir, 'extraction.json'), `${JSON.stringify(json, null, 1)}\n`);
  const sections = report.datasets.map((dataset) => {
    const summary = [
      '| extractor | version | F1 | precision | recall | F1 ≥ 0.9 (pages) | pages/s, one thread | pages per CPU-second | pages/s, worker threads |',
      '|---|---|---|---|---|---|---|---|---|',
      ...dataset.extractors.map((run) => {
        const pages = Object.values(run.per_page);
        const good = pages.filter((page) => page.f1 >= 0.9).length;
        return `| ${run.extractor} | ${run.version} | ${f3(run.metrics.f1)} ± ${f3(run.metrics.f1_std)} | ${f3(run.metrics.precision)} | ${f3(run.metrics.recall)} | ${good} of ${pages.length} | ${run.pages_per_second} (${run.runs_pages_per_second.join(', ')}) | ${run.pages_per_cpu_second} | ${run.workers ? `${run.workers_pages_per_second} with ${run.workers} (${(run.workers_runs ?? []).join(', ')}), ${run.workers_pages_per_cpu_second} per CPU-second` : ''} |`;
      }),
    ].join('\n');
    const names = dataset.extractors.map((run) => run.extractor);
    const keys = Object.keys(dataset.extractors[0]?.per_page ?? {});
    const perPage = [
      `| page | ${names.join(' | ')} |`,
      `|---|${names.map(() => '---').join('|')}|`,
      ...keys.map(
        (key) =>
          `| ${key.slice(0, 12)} | ${dataset.extractors
            .map((run) => {
              const page = run.per_page[key];
              return page ? `${f3(page.f1)} (${f3(page.precision)}/${f3(page.recall)})` : '';
            })
            .join(' | ')} |`,
      ),
    ].join('\n');
    return `## ${dataset.name} (${dataset.pages} pages)\n\n${summary}\n\nThe benchmark's evaluate.py, verbatim:\n\n\`\`\`\n${dataset.evaluate_table.trimEnd()}\n\`\`\`\n\nPer page: F1 (precision/recall).\n\n${perPage}\n`;
  });
  writeFileSync(
    path.join(dir, 'extraction.md'),
    `# Main-content extraction\n\n${report.measured_at}, ${report.machine.cpus} cores, Node ${report.machine.node}, load average ${report.load_average.before.toFixed(1)} before and ${report.load_average.after.toFixed(1)} after; every extractor run ${report.repeat} times on the same pages in the same run (median pages/s, every run in brackets; pages per CPU-second counts only the CPU time the extractor used, all its threads, so other work on the machine distorts it far less than wall time); scores from the benchmark's own evaluate.py (shingles of 4 words, bootstrap ±). \`vigil_markdown\` is scored with its Markdown syntax stripped (link targets and images removed).\n\n${sections.join('\n')}`,
  );
}
