import { benign, type CorpusCall, type CorpusTokenSpec, scam } from '../spec.ts';

// Reflection tuning tokens (Reflections.sol): an owner who may keep an account out of the
// reflections and take it back in. Taking it back in without restating its reflected amount at
// today's rate (a flaw many reflection forks carry) moves, once trading has paid reflections, a
// slice of every holder's balance into that account; restating it moves nothing. Two keep the pool
// out from launch; in two the pool shares until the owner keeps it out.

const includePool: CorpusCall = {
  signature: 'function includeInReward(address account)',
  args: (c) => [c.pair],
};

/**
 * The pool kept out, then the market's taxed trades (the deployer, fee-exempt at launch, made to
 * pay the fee and sending half its tokens on): the stage for taking the pool back in.
 */
const poolOutThenTrades: CorpusCall[] = [
  { signature: 'function excludeFromReward(address account)', args: (c) => [c.pair] },
  {
    signature: 'function setExcludedFromFee(address account, bool excluded)',
    args: (c) => [c.deployer, false],
  },
  {
    signature: 'function transfer(address to, uint256 value) returns (bool)',
    args: (c) => [c.wallet('tn.reflect-buyer'), c.supply / 200n],
  },
];

export const REFLECTION_TOKENS: Record<string, CorpusTokenSpec> = {
  t_reflect_stale_include: {
    contract: 'TnReflectStaleToken',
    name: 'Mirror Yield',
    symbol: 'MIRY',
    args: (c) => ['Mirror Yield', 'MIRY', c.supply, c.router, true],
    market: 'healthy',
    pattern:
      "a 4 % reflection token whose pool is kept out of the reflections from launch; includeInReward(address) (owner) takes an account back in by dropping its kept-apart token count and keeping the reflected amount it had from before: after trading has paid reflections, taking the pool back in makes that stale amount worth more than the pool's tokens, so every holder's balance falls and the pool holds a surplus anyone may skim; owner kept",
    labels: scam('leak'),
    proofs: { leak: { steps: [includePool] } },
  },
  t_reflect_restated_include: {
    contract: 'TnReflectRestatedToken',
    name: 'Mirror Share',
    symbol: 'MIRS',
    args: (c) => ['Mirror Share', 'MIRS', c.supply, c.router, true],
    market: 'healthy',
    pattern:
      "the same 4 % reflection token, pool kept out of the reflections from launch, whose includeInReward(address) (owner) restates the account's reflected amount and the reflected total at today's rate: the rate and every balance stay where they were; owner kept",
    labels: benign('benign_unusual'),
  },
  t_reflect_stale_toggle: {
    contract: 'TnReflectStaleToken',
    name: 'Mirror Pool',
    symbol: 'MIRP',
    args: (c) => ['Mirror Pool', 'MIRP', c.supply, c.router, false],
    market: 'healthy',
    pattern:
      'the stale 4 % reflection token with the pool sharing the reflections from launch, so nothing is stale at any block: the owner keeps the pool out (excludeFromReward), waits while trading pays reflections to the holders alone, then takes it back in (includeInReward) with its reflected amount from before, which moves what the holders earned meanwhile into the pool; owner kept',
    labels: scam('leak'),
    proofs: { leak: { steps: [...poolOutThenTrades, includePool], measureFrom: poolOutThenTrades.length } },
  },
  t_reflect_restated_toggle: {
    contract: 'TnReflectRestatedToken',
    name: 'Mirror Fair',
    symbol: 'MIRF',
    args: (c) => ['Mirror Fair', 'MIRF', c.supply, c.router, false],
    market: 'healthy',
    pattern:
      "the restating 4 % reflection token with the pool sharing the reflections from launch: keeping the pool out and taking it back in, trading between, moves nobody's balance; owner kept",
    labels: benign('benign_unusual'),
  },
};
