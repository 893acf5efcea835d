import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Tuning tokens written for vigil-risk/5: fee setters counted in other units than percent, a tax
// set on one account at a time (Scales.sol), a renounce for show taken back after a date
// (Dormant.sol), a two-call power among a score of setters (Crowded.sol), and a power that takes
// three calls (Steps.sol), and a wallet written into the source and stored past the sixteenth slot
// (LateSlot.sol).

const DAY = 86_400;
const ONE_TOKEN = 10n ** 18n;

const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

export const LATER_TOKENS: Record<string, CorpusTokenSpec> = {
  t_bps_sell_rate: {
    contract: 'TnBpsSellRateToken',
    name: 'Basis Swap',
    symbol: 'BSWP',
    args: (c) => ['Basis Swap', 'BSWP', c.supply, c.router],
    market: 'healthy',
    pattern:
      'setSellRate(uint16) sets the sell tax in basis points up to 100 %, for an operator kept in a mapping',
    labels: scam('limit'),
    proofs: { limit: { steps: [{ signature: 'function setSellRate(uint16)', args: () => [9_500] }] } },
  },
  t_permille_fee: {
    contract: 'TnPermilleFeeToken',
    name: 'Mille Feuille',
    symbol: 'MLFE',
    args: (c) => ['Mille Feuille', 'MLFE', c.supply, c.router],
    market: 'healthy',
    pattern: 'adjustFees(uint256,uint256) sets the buy and sell fees in per mille, up to the whole trade',
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function adjustFees(uint256,uint256)', args: () => [10n, 900n] }] },
    },
  },
  t_account_rate: {
    contract: 'TnAccountRateToken',
    name: 'Fine Print',
    symbol: 'FNPR',
    args: (c) => ['Fine Print', 'FNPR', c.supply, c.router],
    market: 'healthy',
    pattern:
      "setAccountRate(address,uint256) sets one holder's sell tax in percent up to 100 %, for a manager kept in a later slot",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ signature: 'function setAccountRate(address,uint256)', args: (c) => [holder(c), 80n] }],
      },
    },
  },
  t_bps_capped_fee: {
    contract: 'TnBpsCappedFeeToken',
    name: 'Measured',
    symbol: 'MSRD',
    args: (c) => ['Measured', 'MSRD', c.supply, c.router, c.wallet('tn.bps-treasury')],
    market: 'healthy',
    pattern: 'a 1.5 % sell fee in basis points; the owner may change it, never above 3 %',
    labels: benign('benign_unusual'),
  },
  t_permille_capped_fee: {
    contract: 'TnPermilleCappedFeeToken',
    name: 'Tenth Part',
    symbol: 'TNTH',
    args: (c) => ['Tenth Part', 'TNTH', c.supply, c.router],
    market: 'healthy',
    pattern:
      'a 2 % fee each way in per mille, never above 5 %; the owner may exempt accounts, which only lowers a tax',
    labels: benign('benign_unusual'),
  },
  t_dormant_owner: {
    contract: 'TnDormantOwnerToken',
    name: 'Sleeper',
    symbol: 'SLPR',
    args: (c) => ['Sleeper', 'SLPR', c.supply],
    market: 'healthy',
    launch: [{ signature: 'function hibernate(uint256)', args: () => [BigInt(7 * DAY)] }],
    pattern:
      'hibernate(uint256) renounces for show: wake() gives ownership back to the former owner after a week, and mintReserve(uint256) mints any amount for the owner',
    labels: scam('mint'),
    proofs: {
      mint: {
        afterSeconds: 8 * DAY,
        steps: [
          { signature: 'function wake()' },
          { signature: 'function mintReserve(uint256)', args: (c) => [c.supply * 10n] },
        ],
      },
    },
  },
  t_crowded: {
    contract: 'TnCrowdedToken',
    name: 'Crowd Pleaser',
    symbol: 'CRWD',
    args: (c) => ['Crowd Pleaser', 'CRWD', c.supply, c.router],
    market: 'healthy',
    pattern:
      "a tax token with twenty owner setters; setMigrationRatio(uint256) stages a number that lets migrate(address,uint256) burn any holder's tokens. Also (overlooked by its author, found by vigil-risk/9 and proved here): setMaxTxPermille(uint256) has no ceiling, and a huge one overflows the max-tx check, so every limited sell reverts",
    labels: scam('leak', 'limit'),
    proofs: {
      leak: {
        steps: [
          { signature: 'function setMigrationRatio(uint256)', args: () => [1n] },
          { signature: 'function migrate(address,uint256)', args: (c) => [holder(c), ONE_TOKEN] },
        ],
      },
      limit: { steps: [{ signature: 'function setMaxTxPermille(uint256)', args: () => [2n ** 255n] }] },
    },
  },
  t_nominated_issuer: {
    contract: 'TnNominatedIssuerToken',
    name: 'Handover',
    symbol: 'HNDO',
    args: (c) => ['Handover', 'HNDO', c.supply],
    market: 'healthy',
    pattern:
      'nominateIssuer(address) by the owner, acceptIssuer() by the nominee, then issue(address,uint256) mints any amount: three calls',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function nominateIssuer(address)', args: (c) => [c.deployer] },
          { signature: 'function acceptIssuer()' },
          { signature: 'function issue(address,uint256)', args: (c) => [c.deployer, c.supply * 10n] },
        ],
      },
    },
  },
  t_late_slot: {
    contract: 'TnLateSlotToken',
    name: 'Deep Storage',
    symbol: 'DPST',
    args: (c) => ['Deep Storage', 'DPST', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'topUpTreasury(uint256) mints any amount for a keeper written into the source as a literal and kept in the 27th slot; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function topUpTreasury(uint256)',
            args: (c) => [c.supply * 10n],
            from: 'tn.late-keeper',
          },
        ],
      },
    },
  },
};
