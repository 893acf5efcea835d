import { findChain } from '../core/chains/registry.ts';
import { type EvidenceLink, EvidenceKind } from './core/schema.ts';

/**
 * Evidence links for one chain: a block, a transaction or an address with its explorer page
 * when the chain has a public explorer (a local devnet has none: the reference stands alone).
 */
export class EvidenceLinker {
  readonly #explorer: string | undefined;

  constructor(chain: string) {
    this.#explorer = findChain(chain)?.explorer;
  }

  block(block: number | string): EvidenceLink {
    return this.#link(EvidenceKind.block, String(block), 'block');
  }

  tx(hash: string): EvidenceLink {
    return this.#link(EvidenceKind.tx, hash, 'tx');
  }

  address(address: string): EvidenceLink {
    return this.#link(EvidenceKind.address, address, 'address');
  }

  check(id: string): EvidenceLink {
    return { kind: EvidenceKind.check, ref: id };
  }

  source(url: string): EvidenceLink {
    return { kind: EvidenceKind.url, ref: url, url };
  }

  #link(kind: EvidenceKind, ref: string, path: string): EvidenceLink {
    return this.#explorer ? { kind, ref, url: `${this.#explorer}/${path}/${ref}` } : { kind, ref };
  }
}
