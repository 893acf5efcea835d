// Per-class precision and recall (mint, leak, limit) of the scanner on the adversarial corpus
// (infra/devnet/corpus), by part, with the tier bands, the benign-but-unusual share in the lowest
// tier, and how many scans gave a usable result. Deploys the devnet scenario on its own anvil and
// scans every corpus token with the scanner library a worker runs.
//   node bench/corpus.ts [--part heldout|tuning|all] [--label current] [--write]
//   node bench/corpus.ts --part tuning --only <key,...> [--explain <key,...>]  (a quick look)
// --label names the results file (bench/results/corpus-<label>.json); --write puts the tables
// into docs/risk-model.md.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ChainClients } from '../clients/chains/chainClients.ts';
import type { ChainId } from '../core/chains/registry.ts';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { CORPUS_PARTS, type CorpusPart } from '../infra/devnet/corpus/schema.ts';
import { deployScenario, scenarioGenesisTimestamp } from '../infra/devnet/scenario.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';
import { readScanConfig } from '../scanner/config.ts';
import type { EngineFailure } from '../scanner/core/steps.ts';
import type { EngineReport } from '../scanner/core/schema.ts';
import { harmClasses } from '../scanner/core/risk/harm.ts';
import type { ScanResult } from '../scanner/core/result.ts';
import { TokenScanner } from '../scanner/scanner.ts';
import type { ScanStore } from '../scanner/scanStore.ts';
import {
  type CorpusSummary,
  type CorpusVerdict,
  disagreement,
  summarise,
  summaryMarkdown,
} from './corpusMetrics.ts';

const CONCURRENCY = 4;
const BEGIN = '<!-- corpus:begin (node bench/corpus.ts --write) -->';
const END = '<!-- corpus:end -->';

/** A scanner whose results are scored and returned, not stored. */
export function corpusScanner(rpcUrl: string, allowlist: readonly string[]) {
  const scanner = new TokenScanner({
    chains: new ChainClients({ rpcUrls: new Map<ChainId, string[]>([['devnet', [rpcUrl]]]) }),
    // Only save() is called, by finalize: nothing is kept.
    scans: { save: () => Promise.resolve() } as unknown as ScanStore,
    config: readScanConfig({ TOKEN_ALLOWLIST_DEVNET: allowlist.join(',') }),
  });
  return async (address: string): Promise<ScanResult> => {
    const { target, engines } = await scanner.prepare({ chain: 'devnet', address });
    const reports: EngineReport[] = [];
    const failures: EngineFailure[] = [];
    await Promise.all(
      engines.map(async (engine) => {
        try {
          reports.push(await scanner.runEngine(engine, target));
        } catch (error) {
          failures.push({ engine, reason: 'engine_failed', message: String(error) });
        }
      }),
    );
    return scanner.finalize({ jobId: `corpus:${address}`, target, reports, failures });
  };
}

export async function scanAll<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      part: { type: 'string', default: 'all' },
      label: { type: 'string', default: 'current' },
      write: { type: 'boolean', default: false },
      // Tuning only: prints the scan's discovery facts and harm checks of these tokens.
      explain: { type: 'string', default: '' },
      // Tuning only: scans only these tokens (a quick look while a change is made; no --write).
      only: { type: 'string', default: '' },
    },
  });
  const explain = new Set(values.explain ? values.explain.split(',') : []);
  const parts: CorpusPart[] =
    values.part === 'all' ? [...CORPUS_PARTS] : CORPUS_PARTS.filter((part) => part === values.part);
  if (parts.length === 0) throw new Error(`--part must be heldout, tuning or all, not ${values.part}`);
  const only = new Set(values.only ? values.only.split(',') : []);
  if (only.size > 0 && (values.write || parts.includes('heldout')))
    throw new Error(
      '--only is for a quick look at tuning tokens: use it with --part tuning, without --write',
    );
  const anvil = await startAnvil({ genesisTimestamp: scenarioGenesisTimestamp() });
  try {
    const scenario = await deployScenario(anvil.url);
    const scan = corpusScanner(anvil.url, scenario.allowlist);
    const entries = Object.entries(scenario.corpus).filter(
      ([key, token]) => parts.includes(token.part) && (only.size === 0 || only.has(key)),
    );
    const verdicts = await scanAll(entries, async ([key, token]): Promise<CorpusVerdict> => {
      try {
        const result = await scan(token.address);
        if (explain.has(key) && token.part === 'tuning')
          console.log(
            JSON.stringify(
              {
                key,
                discovery: result.facts.contract_safety?.discovery,
                engine_ms: Object.fromEntries(
                  Object.entries(result.engines).map(([k, v]) => [k, v.duration_ms]),
                ),
                checks: result.checks
                  .filter((check) =>
                    ['is_mintable', 'owner_change_balance', 'sells_blockable'].includes(check.id),
                  )
                  .map((check) => ({ id: check.id, status: check.status, detail: check.detail })),
              },
              null,
              1,
            ),
          );
        const usable = result.tier !== 'unknown' && result.risk_score !== null;
        return {
          key,
          token,
          actual: usable
            ? {
                classes: harmClasses(result.checks),
                tier: result.tier,
                risk_score: result.risk_score,
                flags: result.flags.map((flag) => flag.id).sort(),
                failed_engines: Object.entries(result.engines)
                  .filter(([, outcome]) => outcome.status !== 'ok')
                  .map(([engine]) => engine),
              }
            : null,
          ...(usable ? {} : { error: 'nothing could be decided' }),
        };
      } catch (error) {
        return { key, token, actual: null, error: String(error) };
      }
    });
    const summaries = {} as Record<CorpusPart, CorpusSummary>;
    const tables: string[] = [];
    for (const part of parts) {
      const own = verdicts.filter((verdict) => verdict.token.part === part);
      summaries[part] = summarise(own);
      tables.push(summaryMarkdown(part === 'heldout' ? 'Held-out part' : 'Tuning part', summaries[part]));
      // Held-out disagreements are counted, never named: whoever runs the bench while changing the
      // model must not learn which held-out tokens it misses (the JSON keeps them, for audit).
      const lines = own.flatMap((verdict) => disagreement(verdict) ?? []);
      if (part === 'heldout') console.log(`  heldout: ${lines.length} tokens disagree with their labels`);
      else for (const line of lines) console.log(`  ${part} ${line}`);
    }
    const table = tables.join('\n\n');
    console.log(table);
    await writeFile(
      path.join(REPO_ROOT, 'bench', 'results', `corpus-${values.label}.json`),
      `${JSON.stringify({ date: new Date().toISOString(), label: values.label, summaries, verdicts }, null, 2)}\n`,
    );
    if (values.write) {
      const file = path.join(REPO_ROOT, 'docs', 'risk-model.md');
      const doc = await readFile(file, 'utf8');
      const start = doc.indexOf(BEGIN);
      const end = doc.indexOf(END);
      if (start < 0 || end < start) throw new Error(`docs/risk-model.md lacks the ${BEGIN} … ${END} markers`);
      await writeFile(file, `${doc.slice(0, start + BEGIN.length)}\n${table}\n${doc.slice(end)}`);
    }
  } finally {
    await anvil.stop();
  }
}

if (import.meta.main) await main();
