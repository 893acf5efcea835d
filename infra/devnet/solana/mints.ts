import type { ExpectedVerdict } from '../scenarioSchema.ts';

/** What a Solana devnet mint is made of, and what a scanner should conclude. */
export interface MintSpec {
  program: 'spl-token' | 'token-2022';
  decimals: number;
  keepMintAuthority?: boolean;
  keepFreezeAuthority?: boolean;
  permanentDelegate?: boolean;
  transferFee?: { bps: number; authority: boolean };
  transferHook?: boolean;
  nonTransferable?: boolean;
  defaultFrozen?: boolean;
  closeAuthority?: boolean;
  metadata?: { mutable: boolean };
  /** default: 30 equal holders; concentrated: one holds 90 %; few: three holders. */
  holders: 'default' | 'concentrated' | 'few';
  expected: Pick<ExpectedVerdict, 'tier' | 'flags'>;
}

const t22 = { program: 'token-2022', decimals: 6, holders: 'default' } as const;
const classic = { program: 'spl-token', decimals: 6, holders: 'default' } as const;

/** The Solana devnet's mints: for every Solana check one that fails it; benign ones among them. */
export const MINT_SPECS = {
  sol_clean: { ...classic, expected: { tier: 'low', flags: [] } },
  sol_mintable: {
    ...classic,
    keepMintAuthority: true,
    expected: { tier: 'critical', flags: ['is_mintable'] },
  },
  sol_freezable: {
    ...classic,
    keepFreezeAuthority: true,
    expected: { tier: 'critical', flags: ['freezable'] },
  },
  sol_delegate: {
    ...t22,
    permanentDelegate: true,
    expected: { tier: 'critical', flags: ['balance_mutable_authority'] },
  },
  sol_fee_high: {
    ...t22,
    transferFee: { bps: 2_000, authority: true },
    expected: { tier: 'medium', flags: ['transfer_tax', 'slippage_modifiable'] },
  },
  sol_fee_low: { ...t22, transferFee: { bps: 100, authority: false }, expected: { tier: 'low', flags: [] } },
  sol_hook: { ...t22, transferHook: true, expected: { tier: 'medium', flags: ['transfer_hook'] } },
  sol_soulbound: {
    ...t22,
    nonTransferable: true,
    expected: { tier: 'critical', flags: ['none_transferable'] },
  },
  sol_frozen_default: {
    ...t22,
    defaultFrozen: true,
    keepFreezeAuthority: true,
    expected: { tier: 'critical', flags: ['default_account_frozen', 'freezable'] },
  },
  sol_closable: { ...t22, closeAuthority: true, expected: { tier: 'medium', flags: ['closable'] } },
  sol_meta_mutable: {
    ...t22,
    metadata: { mutable: true },
    expected: { tier: 'low', flags: ['metadata_mutable'] },
  },
  sol_meta_fixed: { ...t22, metadata: { mutable: false }, expected: { tier: 'low', flags: [] } },
  sol_concentrated: {
    ...classic,
    holders: 'concentrated',
    expected: { tier: 'high', flags: ['holder_concentration'] },
  },
  sol_few: {
    ...classic,
    holders: 'few',
    expected: { tier: 'high', flags: ['low_holder_count', 'holder_concentration'] },
  },
} as const satisfies Record<string, MintSpec>;

export type MintKey = keyof typeof MINT_SPECS;
