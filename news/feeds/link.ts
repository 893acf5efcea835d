import { CHAINS } from '../../core/chains/registry.ts';
import type { EntityLink } from '../core/schema.ts';

/** A token Vigil knows (it has scanned it): what a news item can be linked to. */
export interface KnownToken {
  chain: string;
  address: string;
  symbol: string | null;
  name: string | null;
}

/** Symbols this short or names this short match too much ordinary text to link on. */
const MIN_SYMBOL = 2;
const MIN_NAME = 4;
/** Chain names that are ordinary words in headlines ("base rates"). */
const AMBIGUOUS_CHAIN_NAMES = new Set(['base']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** EVM addresses are stored in lower case (any checksum casing names the same account); others as they are. */
export const normalAddress = (address: string) =>
  /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;

/**
 * Links an item's text to the tokens and chains it speaks of. A contract address links the token
 * with that address; a symbol links when it stands as a word in capitals (`PEPE`, `$PEPE`); a
 * name when it stands as whole words in any case; a chain by its registry name. Each link says
 * what in the text made it.
 */
export class EntityLinker {
  readonly #byAddress = new Map<string, KnownToken[]>();
  readonly #patterns: { pattern: RegExp; link: (matched: string) => EntityLink }[] = [];

  constructor(tokens: readonly KnownToken[]) {
    for (const token of tokens) {
      const address = normalAddress(token.address);
      this.#byAddress.set(address, [...(this.#byAddress.get(address) ?? []), { ...token, address }]);
      const symbol = token.symbol?.trim();
      const link = (matched: string): EntityLink => ({
        chain: token.chain,
        address: normalAddress(token.address),
        symbol: symbol || null,
        matched,
      });
      if (symbol && symbol.length >= MIN_SYMBOL && /^[A-Za-z0-9]+$/.test(symbol))
        this.#patterns.push({
          pattern: new RegExp(`(?<![\\w$])\\$?${escape(symbol.toUpperCase())}(?![\\w])`, 'g'),
          link,
        });
      const name = token.name?.trim();
      if (name && name.length >= MIN_NAME)
        this.#patterns.push({ pattern: new RegExp(`(?<!\\w)${escape(name)}(?!\\w)`, 'gi'), link });
    }
    for (const chain of CHAINS) {
      if (AMBIGUOUS_CHAIN_NAMES.has(chain.name.toLowerCase())) continue;
      this.#patterns.push({
        pattern: new RegExp(`(?<!\\w)${escape(chain.name)}(?!\\w)`, 'gi'),
        link: (matched) => ({ chain: chain.id, address: null, symbol: null, matched }),
      });
    }
  }

  link(text: string): EntityLink[] {
    const links = new Map<string, EntityLink>();
    const add = (link: EntityLink) => {
      const key = `${link.chain}|${link.address ?? ''}`;
      if (!links.has(key)) links.set(key, link);
    };
    for (const match of text.matchAll(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g))
      for (const token of this.#byAddress.get(match[0].toLowerCase()) ?? [])
        add({ chain: token.chain, address: token.address, symbol: token.symbol, matched: match[0] });
    for (const { pattern, link } of this.#patterns) {
      pattern.lastIndex = 0;
      const match = pattern.exec(text);
      if (match) add(link(match[0]));
    }
    return [...links.values()];
  }
}
