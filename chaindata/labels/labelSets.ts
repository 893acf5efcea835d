import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { SnapshotId, SnapshotRow } from './snapshot.ts';

/**
 * The public label sets and token lists Vigil ships beside eth-labels, each MIT-licensed, each
 * read from a git clone of its repository by assembleLabelSets.ts and committed as a snapshot
 * (`data/<id>.ndjson.gz`) with its licence (`LICENSE.<id>`). Rows are facts (an address, its
 * chain, a label, a name), not code. A token list's entries are labelled `token-list` with the
 * token's name and symbol; label sets keep their own labels.
 */
export interface LabelSet {
  id: Exclude<SnapshotId, 'eth-labels'>;
  repository: string;
  copyright: string;
  read(source: SourceTree): SnapshotRow[];
}

/** A clone's files at its HEAD. */
export interface SourceTree {
  list(prefix: string): string[];
  /** The file's text, or undefined when the clone does not hold it. */
  text(file: string): string | undefined;
}

type Kind = SnapshotRow[4];

/** One row per (address, chain, label); the first name seen wins, except that a name beats none. */
class Rows {
  readonly #rows = new Map<string, SnapshotRow>();
  add(address: unknown, chainId: unknown, label: string, name: unknown, kind: Kind): void {
    if (typeof address !== 'string' || typeof chainId !== 'number') return;
    const normalized = address.trim().toLowerCase();
    if (!/^0x[0-9a-f]{40}$/.test(normalized) || !Number.isSafeInteger(chainId) || chainId <= 0) return;
    if (!label.trim()) return;
    const key = `${normalized}|${chainId}|${label}`;
    const named = typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : null;
    const existing = this.#rows.get(key);
    if (!existing || (existing[3] === null && named !== null))
      this.#rows.set(key, [normalized, chainId, label, named, kind]);
  }
  sorted(): SnapshotRow[] {
    const key = (row: SnapshotRow) => `${row[0]}|${String(row[1]).padStart(12, '0')}|${row[2]}`;
    return [...this.#rows.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
}

/** A token list entry (the Uniswap token-list shape most lists follow). */
const Token = z.looseObject({
  address: z.unknown(),
  chainId: z.unknown(),
  name: z.unknown().optional(),
  symbol: z.unknown().optional(),
});

function tokenName(token: { name?: unknown; symbol?: unknown }): string | null {
  const name = typeof token.name === 'string' ? token.name.trim() : '';
  const symbol = typeof token.symbol === 'string' ? token.symbol.trim() : '';
  if (name && symbol && name !== symbol) return `${name} (${symbol})`;
  return name || symbol || null;
}

/** A DEX pool's LP token name, `Uniswap V2 Wrapped BTC + USD Coin`, without the empty sides some lists leave (`SushiSwap LP Token  + `). */
function poolName(token: { name?: unknown; symbol?: unknown }): string | null {
  const name = typeof token.name === 'string' ? token.name.replace(/\s+/g, ' ').trim() : '';
  return name.replace(/\s*\+$/, '').trim() || null;
}

/**
 * Every entry of a token list file, whether it is a bare array or a `{ tokens: [...] }` list,
 * labelled `token-list` and named by name and symbol unless the list is of another kind.
 */
function readTokenList(
  text: string,
  rows: Rows,
  as: { label: string; name: typeof tokenName; chains?: ReadonlySet<number> } = {
    label: 'token-list',
    name: tokenName,
  },
): void {
  const parsed: unknown = JSON.parse(text);
  const entries = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' && parsed !== null && 'tokens' in parsed && Array.isArray(parsed.tokens)
      ? (parsed.tokens as unknown[])
      : [];
  for (const entry of entries) {
    const token = Token.safeParse(entry);
    if (!token.success) continue;
    const { address, chainId } = token.data;
    if (as.chains && !(typeof chainId === 'number' && as.chains.has(chainId))) continue;
    rows.add(address, chainId, as.label, as.name(token.data), 'token');
  }
}

const tokenLists = (source: SourceTree, files: string[]): SnapshotRow[] => {
  const rows = new Rows();
  for (const file of files) {
    const text = source.text(file);
    if (text !== undefined) readTokenList(text, rows);
  }
  return rows.sorted();
};

/** The explorer folders of etherscan-labels and the chain each labels. */
const EXPLORERS: Record<string, number> = {
  etherscan: 1,
  bscscan: 56,
  polygonscan: 137,
  arbiscan: 42161,
  avalanche: 43114,
  ftmscan: 250,
  optimism: 10,
};
const ExplorerLabels = z.record(
  z.string(),
  z.object({ name: z.string().nullish(), labels: z.array(z.string()) }),
);

const csvRecords = (text: string): Record<string, string>[] =>
  z
    .array(z.record(z.string(), z.string()))
    .parse(
      parse(text, { columns: true, skip_empty_lines: true, relax_quotes: true, relax_column_count: true }),
    );

export const LABEL_SETS: readonly LabelSet[] = [
  {
    id: 'etherscan-labels',
    repository: 'github.com/brianleect/etherscan-labels',
    copyright: '© 2022 Brian Lee Cheow Teng',
    read(source) {
      const rows = new Rows();
      for (const [explorer, chainId] of Object.entries(EXPLORERS)) {
        const text = source.text(`data/${explorer}/combined/combinedAllLabels.json`);
        if (text === undefined) continue;
        for (const [address, { name, labels }] of Object.entries(ExplorerLabels.parse(JSON.parse(text))))
          for (const label of labels) rows.add(address, chainId, label, name, 'account');
      }
      return rows.sorted();
    },
  },
  {
    id: 'forta-labelled-datasets',
    repository: 'github.com/forta-network/labelled-datasets',
    copyright: '© 2022 Forta Foundation',
    read(source) {
      const rows = new Rows();
      for (const file of source.list('labels/')) {
        const match = /^labels\/(\d+)\/([a-z_]+)\.csv$/.exec(file);
        const text = source.text(file);
        if (!match || text === undefined) continue;
        const chainId = Number(match[1]);
        for (const record of csvRecords(text)) {
          if (match[2] === 'malicious_smart_contracts') {
            rows.add(record.contract_address, chainId, 'malicious-contract', record.contract_tag, 'account');
            rows.add(
              record.contract_creator,
              chainId,
              'malicious-contract-deployer',
              record.contract_creator_tag,
              'account',
            );
          } else if (match[2] === 'phishing_scams') {
            rows.add(
              record.address,
              chainId,
              record.etherscan_labels || 'phish-hack',
              record.etherscan_tag,
              'account',
            );
          } else if (match[2] === 'etherscan_malicious_labels') {
            // `etherscan-phish-hack-list` → `phish-hack`, as the other sets name it.
            const label = (record.data_source ?? '').replace(/^etherscan-/, '').replace(/-list$/, '');
            rows.add(record.banned_address, chainId, label || 'phish-hack', record.wallet_tag, 'account');
          }
        }
      }
      return rows.sorted();
    },
  },
  {
    id: 'token-directory',
    repository: 'github.com/0xsequence/token-directory',
    copyright: '© 2018-present Sequence Platforms ULC',
    read: (source) =>
      tokenLists(
        source,
        source.list('index/').filter((file) => file.endsWith('.json')),
      ),
  },
  {
    id: 'via-tokenlists',
    repository: 'github.com/viaprotocol/tokenlists',
    copyright: '© 2022 Via Protocol',
    read: (source) =>
      tokenLists(
        source,
        [...source.list('all_tokens/'), ...source.list('tokenlists/')].filter((file) =>
          file.endsWith('.json'),
        ),
      ),
  },
  {
    id: 'ethereum-lists-tokens',
    repository: 'github.com/ethereum-lists/tokens',
    copyright: '© 2018 ethereum-lists',
    read(source) {
      // One file per token, `tokens/<network>/<address>.json`, the network named by its short name.
      const networks: Record<string, number> = { eth: 1, bsc: 56, avax: 43114, arb: 42161, etc: 61, rsk: 30 };
      const rows = new Rows();
      for (const file of source.list('tokens/')) {
        const [, network, leaf] = file.split('/');
        const chainId = network === undefined ? undefined : networks[network];
        if (chainId === undefined || !leaf?.endsWith('.json')) continue;
        const text = source.text(file);
        if (text === undefined) continue;
        const token: unknown = JSON.parse(text);
        const name = typeof token === 'object' && token !== null ? tokenName(token) : null;
        rows.add(leaf.slice(0, -'.json'.length), chainId, 'token-list', name, 'token');
      }
      return rows.sorted();
    },
  },
  {
    id: 'smoldapp-tokenlists',
    repository: 'github.com/SmolDapp/tokenLists',
    copyright: '© 2023 The Migratooor',
    read(source) {
      // Tokenlistooor: a list per project and chain (`lists/<chainId>/<project>.json`, built from
      // CoinGecko, Portals, Messari, Ledger, Curve, 1inch, DEX pairs...) and their unions
      // (`lists/<project>.json`, `lists/<chainId>.json`), all in Uniswap's token-list shape. Its
      // `*-pools` lists are DEX pools, each by its LP token: labelled `dex-pool`, not `token-list`,
      // and taken on Ethereum only. The other chains' pool lists repeat the same LP addresses on up
      // to six chains (an upstream generator fault): other sources place 670 of 670 of Ethereum's
      // pools on Ethereum, and 6 of 3,417 of the rest on the chain these lists name (docs/data.md).
      const pools = { label: 'dex-pool', name: poolName, chains: new Set([1]) };
      const rows = new Rows();
      for (const file of source.list('lists/').filter((name) => name.endsWith('.json'))) {
        const text = source.text(file);
        if (text === undefined) continue;
        readTokenList(text, rows, /-pools\.json$/.test(file) ? pools : undefined);
      }
      return rows.sorted();
    },
  },
];
