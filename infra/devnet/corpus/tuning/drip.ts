import { benign, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Tuning tokens written for vigil-risk/7 (Drip.sol): powers that move too little in one call to
// tell, made again and again, and two honest tokens whose steps stop at a ceiling.

/** A proof step made `times` times in a row. */
const times = <T>(count: number, step: T): T[] => Array.from({ length: count }, () => step);

export const DRIP_TOKENS: Record<string, CorpusTokenSpec> = {
  t_drip_mint: {
    contract: 'TnDripMintToken',
    name: 'Slow Drip',
    symbol: 'DRIP',
    args: (c) => ['Slow Drip', 'DRIP', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'allocate(uint256) mints up to 2 % of the supply a call, as often as a distributor kept in a mapping likes; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: times(30, { signature: 'function allocate(uint256)', args: (c) => [c.supply / 50n] }),
      },
    },
  },
  t_fixed_dose: {
    contract: 'TnFixedDoseToken',
    name: 'Fixed Dose',
    symbol: 'FXDS',
    args: (c) => ['Fixed Dose', 'FXDS', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'replenish() mints a fixed 4 % of the launch supply a call to a keeper kept in storage, with no wait; the owner renounced',
    labels: scam('mint'),
    proofs: { mint: { steps: times(15, { signature: 'function replenish()' }) } },
  },
  t_fee_ramp: {
    contract: 'TnFeeRampToken',
    name: 'Ramp Up',
    symbol: 'RAMP',
    args: (c) => ['Ramp Up', 'RAMP', c.supply, c.router, c.wallet('tn.ramp-marketing')],
    market: 'healthy',
    pattern: 'a 2 % sell fee; raiseMarketingFee() adds two points a call and nothing caps it',
    labels: scam('limit'),
    proofs: { limit: { steps: times(20, { signature: 'function raiseMarketingFee()' }) } },
  },
  t_staking_emission: {
    contract: 'TnStakingEmissionToken',
    name: 'Steady Yield',
    symbol: 'STDY',
    args: (c) => ['Steady Yield', 'STDY', c.supply],
    market: 'healthy_locked',
    pattern:
      'staking rewards: the owner mints at most 1 % of the launch supply a call and 8 % above it in all',
    labels: benign('benign_unusual'),
  },
  t_fee_step: {
    contract: 'TnFeeStepToken',
    name: 'Small Steps',
    symbol: 'SMST',
    args: (c) => ['Small Steps', 'SMST', c.supply, c.router, c.wallet('tn.step-treasury')],
    market: 'healthy',
    pattern: 'a 1 % sell fee the owner may raise a point at a time, never above 5 %',
    labels: benign('benign_unusual'),
  },
};
