import { type Address, parseEther } from 'viem';
import { type ExpectedVerdict, type TokenKey, TokenKind } from './scenarioSchema.ts';

/** How the scenario deploys, lists and trades one token, and what a scanner should conclude. */
export interface TokenSpec {
  /** Contract name in infra/devnet/contracts. */
  contract: string;
  kind: TokenKind;
  name: string;
  symbol: string;
  decimals: number;
  constructorArgs(context: { router: Address }): readonly unknown[];
  /** Seeded into the WETH pair by the deployer. */
  liquidity: { tokens: bigint; eth: bigint };
  renounceOwnership: boolean;
  /** Traders sell after buying; false leaves buy-only history (a trapped honeypot). */
  tradersSell: boolean;
  expected: ExpectedVerdict;
}

const SUPPLY = parseEther('1000000000');
const LIQUIDITY = { tokens: parseEther('800000000'), eth: parseEther('20') };
const HIGH_SELL_TAX_BPS = 3_000;

const noTaxes = { cannotBuy: false, buyTaxBps: 0, sellTaxBps: 0, transferTaxBps: 0 };

/** Adding a token: a contract under contracts/, a key in TOKEN_KEYS, and an entry here. */
export const TOKEN_SPECS: Record<TokenKey, TokenSpec> = {
  clean: {
    contract: 'CleanToken',
    kind: TokenKind.clean,
    name: 'Clean Token',
    symbol: 'CLEAN',
    decimals: 18,
    constructorArgs: () => ['Clean Token', 'CLEAN', SUPPLY],
    liquidity: LIQUIDITY,
    renounceOwnership: true,
    tradersSell: true,
    expected: {
      honeypot: false,
      sellRevertReason: null,
      ...noTaxes,
      ownershipRenounced: true,
      ownerCanMint: false,
      flags: [],
    },
  },
  honeypot: {
    contract: 'HoneypotToken',
    kind: TokenKind.honeypot,
    name: 'Moon Honey',
    symbol: 'HONEY',
    decimals: 18,
    constructorArgs: ({ router }) => ['Moon Honey', 'HONEY', SUPPLY, router],
    liquidity: LIQUIDITY,
    renounceOwnership: false,
    tradersSell: false,
    expected: {
      honeypot: true,
      sellRevertReason: 'HONEY: sells are paused',
      ...noTaxes,
      ownershipRenounced: false,
      ownerCanMint: false,
      flags: ['is_honeypot', 'owner_not_renounced'],
    },
  },
  high_tax: {
    contract: 'FeeToken',
    kind: TokenKind.tax,
    name: 'Toll Token',
    symbol: 'TOLL',
    decimals: 18,
    constructorArgs: ({ router }) => [
      'Toll Token',
      'TOLL',
      SUPPLY,
      router,
      0n,
      BigInt(HIGH_SELL_TAX_BPS),
      0n,
    ],
    liquidity: LIQUIDITY,
    renounceOwnership: false,
    tradersSell: true,
    expected: {
      honeypot: false,
      sellRevertReason: null,
      ...noTaxes,
      sellTaxBps: HIGH_SELL_TAX_BPS,
      ownershipRenounced: false,
      ownerCanMint: false,
      flags: ['sell_tax', 'owner_not_renounced'],
    },
  },
  mintable: {
    contract: 'MintableToken',
    kind: TokenKind.mintable,
    name: 'Printer Token',
    symbol: 'PRINT',
    decimals: 18,
    constructorArgs: () => ['Printer Token', 'PRINT', SUPPLY],
    liquidity: LIQUIDITY,
    renounceOwnership: false,
    tradersSell: true,
    expected: {
      honeypot: false,
      sellRevertReason: null,
      ...noTaxes,
      ownershipRenounced: false,
      ownerCanMint: true,
      flags: ['is_mintable', 'owner_not_renounced'],
    },
  },
};
