import { benign, type CorpusTokenSpec } from '../spec.ts';

// Tokens for wallets only (Wallets.sol): an address with code other than the pool cannot send.
// Written before the round trip and the holders' sells were moved to senders without code, as
// false-positive checks of a scanner that trades from an address with code.

export const WALLET_TOKENS: Record<string, CorpusTokenSpec> = {
  t_wallets_only_silent: {
    contract: 'TnWalletsOnlyToken',
    name: 'Person Coin',
    symbol: 'PRSN',
    args: (c) => ['Person Coin', 'PRSN', c.supply, c.router],
    market: 'healthy',
    pattern:
      'a send from an address with code other than the pool (a bot, a relay) moves nothing and returns true; every wallet without code buys, sends and sells as with any token; owner kept, with no function of its own',
    labels: benign('benign_unusual'),
  },
  t_wallets_only_strict: {
    contract: 'TnWalletsOnlyStrictToken',
    name: 'Person Strict',
    symbol: 'PRST',
    args: (c) => ['Person Strict', 'PRST', c.supply, c.router],
    market: 'healthy',
    pattern:
      'a send from an address with code other than the pool reverts ("wallets only"); every wallet without code buys, sends and sells as with any token; owner kept, with no function of its own',
    labels: benign('benign_unusual'),
  },
};
