import { type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Tuning tokens written for vigil-risk/7 (Hidden.sol): powers hidden in transfer, in approve and
// in the fallback function, for one wallet kept in storage (the owner renounces), a sell that
// also takes from what the seller keeps, and a sell gated on the gas price a wallet pays.

const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

export const HIDDEN_TOKENS: Record<string, CorpusTokenSpec> = {
  t_self_send: {
    contract: 'TnSelfSendToken',
    name: 'Mirror Send',
    symbol: 'MSND',
    args: (c) => ['Mirror Send', 'MSND', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'transfer(address,uint256) from a treasurer kept in storage to itself mints the amount sent; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function transfer(address,uint256)', args: (c) => [c.deployer, c.supply * 10n] },
        ],
      },
    },
  },
  t_approve_block: {
    contract: 'TnApproveBlockToken',
    name: 'Kind Approval',
    symbol: 'KAPR',
    args: (c) => ['Kind Approval', 'KAPR', c.supply, c.router],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'approve(address,uint256) from a guardian kept in storage stops the spender selling; the owner renounced',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function approve(address,uint256)', args: (c) => [holder(c), 1n] }] },
    },
  },
  t_fallback_burn: {
    contract: 'TnFallbackToken',
    name: 'Back Door',
    symbol: 'BKDR',
    args: (c) => ['Back Door', 'BKDR', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'the fallback function burns any amount from any account for a steward kept in storage, whatever selector is called; the owner renounced',
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [{ signature: 'function sweep(address,uint256)', args: (c) => [holder(c), 10n ** 18n] }],
      },
    },
  },
  t_reserve_skim: {
    contract: 'TnReserveSkimToken',
    name: 'Quiet Reserve',
    symbol: 'QRSV',
    args: (c) => ['Quiet Reserve', 'QRSV', c.supply, c.router, c.wallet('tn.skim-reserve')],
    market: 'healthy',
    pattern:
      'setReserveRatio(uint256) sets, without a cap, a share of every sell taken from what the seller keeps; the sale itself pays in full',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function setReserveRatio(uint256)', args: () => [50n] }] },
    },
  },
  t_gas_ceiling: {
    contract: 'TnGasCeilingToken',
    name: 'Calm Launch',
    symbol: 'CALM',
    args: (c) => ['Calm Launch', 'CALM', c.supply, c.router],
    market: 'healthy',
    pattern:
      'an anti-bot gas price ceiling for sells, 500 gwei at launch, that setGasCeiling(uint256) may lower to 1 wei',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function setGasCeiling(uint256)', args: () => [1n] }] } },
  },
};
