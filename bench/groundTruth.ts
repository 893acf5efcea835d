// Precision and recall of every flag over the devnet scenario suite, computed by scanning each
// scenario token with the scanner library the worker runs, and written into docs/risk-model.md.
//   node bench/groundTruth.ts [--write]
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ChainClients } from '../clients/chains/chainClients.ts';
import type { ChainId } from '../core/chains/registry.ts';
import { scoreToken } from '../scanner/core/risk/score.ts';
import { TokenScanner } from '../scanner/scanner.ts';
import { allowlistEntry, readScanConfig } from '../scanner/config.ts';
import type { ScanStore } from '../scanner/scanStore.ts';
import { startAnvil } from '../infra/devnet/anvil.ts';
import { deployScenario, scenarioGenesisTimestamp } from '../infra/devnet/scenario.ts';
import { startSolanaDevnet } from '../infra/devnet/solana/devnet.ts';
import { REPO_ROOT } from '../infra/stack/processes.ts';

export interface Verdict {
  chain: string;
  key: string;
  expected: { flags: string[]; tier: string };
  actual: { flags: string[]; tier: string; risk_score?: number | null };
}

/** Scans one token with the scanner library a worker runs, minus the store write. */
export function inProcessScanner(rpcUrls: Map<ChainId, string[]>, env: NodeJS.ProcessEnv) {
  const config = readScanConfig(env);
  const scanner = new TokenScanner({
    chains: new ChainClients({ rpcUrls }),
    // Never called: scoring happens here, without finalize's store write.
    scans: {} as ScanStore,
    config,
  });
  return async (chain: string, address: string) => {
    const { target, engines } = await scanner.prepare({ chain, address });
    const reports = await Promise.all(engines.map((engine) => scanner.runEngine(engine, target)));
    const allowlist = allowlistEntry(config, chain, address);
    return scoreToken(
      reports.flatMap((report) => report.checks),
      allowlist ? { allowlist } : {},
    );
  };
}

export interface FlagStats {
  flag: string;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
}

export function precisionRecall(verdicts: readonly Verdict[]): FlagStats[] {
  const flags = [
    ...new Set(verdicts.flatMap((verdict) => [...verdict.expected.flags, ...verdict.actual.flags])),
  ].sort();
  return flags.map((flag) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const verdict of verdicts) {
      const expected = verdict.expected.flags.includes(flag);
      const actual = verdict.actual.flags.includes(flag);
      if (expected && actual) tp++;
      else if (actual) fp++;
      else if (expected) fn++;
    }
    return {
      flag,
      tp,
      fp,
      fn,
      precision: tp + fp === 0 ? null : tp / (tp + fp),
      recall: tp + fn === 0 ? null : tp / (tp + fn),
    };
  });
}

export function markdown(verdicts: readonly Verdict[]): string {
  const stats = precisionRecall(verdicts);
  const tiers = verdicts.filter((verdict) => verdict.expected.tier === verdict.actual.tier).length;
  const exact = verdicts.filter((verdict) => sameFlags(verdict)).length;
  const pct = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(0)} %`);
  const rows = stats.map(
    (row) =>
      `| \`${row.flag}\` | ${row.tp} | ${row.fp} | ${row.fn} | ${pct(row.precision)} | ${pct(row.recall)} |`,
  );
  return [
    `Over ${verdicts.length} scenario tokens (${verdicts.filter((v) => v.chain === 'devnet').length} EVM, ${verdicts.filter((v) => v.chain !== 'devnet').length} Solana): ` +
      `${exact} with exactly the expected flags, ${tiers} in the expected tier band.`,
    '',
    '| flag | true positives | false positives | false negatives | precision | recall |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function sameFlags(verdict: Verdict): boolean {
  return (
    JSON.stringify([...verdict.expected.flags].sort()) === JSON.stringify([...verdict.actual.flags].sort())
  );
}

const BEGIN = '<!-- ground-truth:begin (node bench/groundTruth.ts --write) -->';
const END = '<!-- ground-truth:end -->';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { write: { type: 'boolean', default: false } } });
  const anvil = await startAnvil({ genesisTimestamp: scenarioGenesisTimestamp() });
  const solana = await startSolanaDevnet();
  try {
    const scenario = await deployScenario(anvil.url);
    const scan = inProcessScanner(
      new Map<ChainId, string[]>([
        ['devnet', [anvil.url]],
        ['solana_devnet', [solana.url]],
      ]),
      { TOKEN_ALLOWLIST_DEVNET: scenario.allowlist.join(',') },
    );
    const verdicts: Verdict[] = [];
    for (const [key, token] of Object.entries(scenario.tokens)) {
      const summary = await scan('devnet', token.address);
      verdicts.push({
        chain: 'devnet',
        key,
        expected: token.expected,
        actual: {
          flags: summary.flags.map((f) => f.id).sort(),
          tier: summary.tier,
          risk_score: summary.risk_score,
        },
      });
    }
    for (const [key, mint] of Object.entries(solana.mints)) {
      const summary = await scan('solana_devnet', mint.address);
      verdicts.push({
        chain: 'solana_devnet',
        key,
        expected: mint.expected,
        actual: {
          flags: summary.flags.map((f) => f.id).sort(),
          tier: summary.tier,
          risk_score: summary.risk_score,
        },
      });
    }
    for (const verdict of verdicts) {
      if (!sameFlags(verdict) || verdict.expected.tier !== verdict.actual.tier)
        console.log(
          `${verdict.key}: expected ${verdict.expected.tier} [${verdict.expected.flags.join(', ')}], got ${verdict.actual.tier} [${verdict.actual.flags.join(', ')}]`,
        );
    }
    const table = markdown(verdicts);
    console.log(table);
    await writeFile(
      path.join(REPO_ROOT, 'bench', 'results', 'ground-truth.json'),
      `${JSON.stringify({ date: new Date().toISOString(), verdicts, flags: precisionRecall(verdicts) }, null, 2)}\n`,
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
    await Promise.allSettled([anvil.stop(), solana.close()]);
  }
}

if (import.meta.main) await main();
