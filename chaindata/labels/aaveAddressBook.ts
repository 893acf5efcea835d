import { createRequire } from 'node:module';
import { chainByEvmId } from '../../core/chains/registry.ts';
import type { LabelRow } from './labelRow.ts';

/**
 * Aave's own address book (@bgd-labs/aave-address-book, MIT, pinned in package.json): every
 * contract of every Aave market on each chain it runs on (pools, configurators, oracles, aTokens,
 * debt tokens, rate strategies, governance executors, stewards), the assets each market lists, and
 * the Chainlink feeds Aave reads. One namespace per market (`AaveV3Ethereum`) with its `CHAIN_ID`;
 * the rows name the contract by its place in the book (`Aave: AaveV3Ethereum POOL`,
 * `Aave: AaveV3Ethereum ASSETS USDC A_TOKEN`).
 */
export const AAVE_PACKAGE = '@bgd-labs/aave-address-book';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ZERO = '0x0000000000000000000000000000000000000000';

const require = createRequire(import.meta.url);

type Book = Record<string, unknown>;

export function aaveAddressBookRows(version: string): LabelRow[] {
  const book = require('@bgd-labs/aave-address-book') as Book;
  const rows = new Map<string, LabelRow>();
  const add = (address: string, chainId: number, label: string, category: string, name: string) => {
    const lower = address.toLowerCase();
    if (lower === ZERO) return;
    const key = `${lower}|${chainId}|${label}`;
    if (rows.has(key)) return;
    rows.set(key, {
      address: lower,
      chain: chainByEvmId(chainId)?.id ?? `eip155:${chainId}`,
      chain_id: chainId,
      label,
      category,
      name_tag: name,
      source: `aave-address-book@${version}`,
    });
  };
  for (const [namespace, entries] of Object.entries(book)) {
    if (!isRecord(entries)) continue;
    const chainId = entries.CHAIN_ID;
    if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) continue;
    const chainlink = namespace.startsWith('Chainlink');
    for (const [path, address] of addressesIn(entries, [])) {
      const place = path.join(' ');
      // A listed asset's own token is the asset's, not Aave's: labelled as a token by its symbol.
      if (path[0] === 'ASSETS' && path.at(-1) === 'UNDERLYING')
        add(address, chainId, 'token-list', 'token', path[1] ?? place);
      else if (chainlink) add(address, chainId, 'chainlink', 'defi', `Chainlink: ${place}`);
      else add(address, chainId, 'aave', 'defi', `Aave: ${namespace} ${place}`);
    }
  }
  return [...rows.values()];
}

/** Every address string below `value`, with the keys that lead to it. */
function* addressesIn(value: Book, path: string[]): Generator<[string[], string]> {
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string' && ADDRESS.test(entry)) yield [[...path, key], entry];
    else if (isRecord(entry)) yield* addressesIn(entry, [...path, key]);
  }
}

function isRecord(value: unknown): value is Book {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
