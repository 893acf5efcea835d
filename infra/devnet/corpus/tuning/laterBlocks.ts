import { parseEther } from 'viem';
import { benign, type CorpusCall, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Written during vigil-risk/23 by the model's authors (LaterBlocks.sol) from the attacks its
// reviewer made on the later-block round: powers staged by one call and applied only in a later
// block, written to slip past it (a budget bounded below the words it stages, a recipient before
// the amount, an apply that always writes, two hours' or 301 blocks' notice, a fee the token
// switches on by itself, decoys, a keeper computed from constants, one function for both steps, a
// payout only at a gas price, housekeeping functions crowding the apply); and three honest tokens
// that apply in a later block too (a capped epoch emission, a capped queued fee, a timelock of a
// day of blocks). Then (LaterBlocksTwo.sol) the attacks its second reviewer made on the mended
// round (a window that closes before the round's block, a clock that must move as a chain's, a
// numbered proposal, a percentage, two staging calls both needed, a confirmation between, a base
// fee or randomness a made-up block lacks, a cancel that undoes the proposal in the same block)
// and two honest switches whose sells an hour on buy back or burn LP out of the pair (and the
// LP burn on a clock of its own).

const COUNCIL = 'lb.council';
const budgetArgs =
  (name: string, symbol: string) => (c: Parameters<NonNullable<CorpusTokenSpec['args']>>[0]) => [
    name,
    symbol,
    c.supply,
    c.wallet(COUNCIL),
  ];
const propose = (times: bigint, signature = 'function proposeBudget(uint256 amount)'): CorpusCall => ({
  signature,
  args: (c) => [c.supply * times],
  from: COUNCIL,
});
const keeper = (signature = 'function executeBudget()', wait: Partial<CorpusCall> = {}): CorpusCall => ({
  signature,
  ...wait,
});

/** A council's budget the keeper applies in a later block: a scam of class mint. */
function budget(
  contract: string,
  name: string,
  symbol: string,
  pattern: string,
  steps: CorpusCall[] = [propose(5n), keeper()],
): CorpusTokenSpec {
  return {
    contract,
    name,
    symbol,
    args: budgetArgs(name, symbol),
    market: 'healthy',
    launch: [renounce],
    pattern,
    labels: scam('mint'),
    proofs: { mint: { steps } },
  };
}

const setPair: CorpusCall = { signature: 'function setPair(address pair_)', args: (c) => [c.pair] };

export const LATER_BLOCK_TOKENS: Record<string, CorpusTokenSpec> = {
  t_lb_band_budget: budget(
    'TnLbBandBudget',
    'Sane Budget',
    'SNBG',
    'a council wallet proposes a budget of at most ten times the supply, and the keeper (the deployer) mints it to the council in a later block; the owner renounced',
    [propose(10n), keeper()],
  ),
  t_lb_queue_mint_to: budget(
    'TnLbQueueMintTo',
    'Queued Issue',
    'QISU',
    'a council wallet queues queueMint(to, amount), and the keeper executes it in a later block; the owner renounced',
    [
      {
        signature: 'function queueMint(address to, uint256 amount)',
        args: (c) => [c.wallet(COUNCIL), c.supply * 5n],
        from: COUNCIL,
      },
      keeper('function executeMint()'),
    ],
  ),
  t_lb_poked_budget: budget(
    'TnLbPokedBudget',
    'Heartbeat Budget',
    'HBBG',
    'a council budget the keeper mints in a later block, whose execute writes a heartbeat on every call; the owner renounced',
  ),
  t_lb_two_hour_budget: budget(
    'TnLbTwoHourBudget',
    'Short Notice',
    'SHNT',
    'a council budget the keeper may mint two hours after it was proposed; the owner renounced',
    [propose(5n), keeper('function executeBudget()', { afterSeconds: 7_200 })],
  ),
  t_lb_block_delay_budget: budget(
    'TnLbBlockDelayBudget',
    'Block Notice',
    'BKNT',
    'a council budget the keeper may mint 301 blocks after it was proposed (further than one simulation reaches); the owner renounced',
    [propose(5n), keeper('function executeBudget()', { afterBlocks: 302 })],
  ),
  t_lb_lazy_tax: {
    contract: 'TnLbLazyTax',
    name: 'Lazy Fee',
    symbol: 'LZFE',
    args: (c) => ['Lazy Fee', 'LZFE', c.supply, c.wallet('lb.manager')],
    market: 'healthy',
    launch: [setPair, renounce],
    pattern:
      'a manager wallet schedules a sell fee of any size, which the token switches on by itself at the first transfer of the next block; the owner renounced',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function scheduleFeeUpdate(uint256 bps)',
            args: () => [9_000n],
            from: 'lb.manager',
          },
        ],
      },
    },
  },
  t_lb_decoy_budget: budget(
    'TnLbDecoyBudget',
    'Civic Budget',
    'CVBG',
    'a council budget the keeper mints in a later block, among six governance functions any holder may call that each write storage; the owner renounced',
  ),
  t_lb_hidden_keeper: budget(
    'TnLbHiddenKeeper',
    'Quiet Keeper',
    'QTKP',
    'a council budget minted in a later block by a keeper computed as the xor of two constants and stored nowhere; the owner renounced',
    [propose(5n), { signature: 'function executeBudget()', from: 'lb.hidden' }],
  ),
  t_lb_self_staged: budget(
    'TnLbSelfStaged',
    'One Step',
    'ONST',
    'processBudget(amount) stores a budget for the council, and pays the stored one out when the council calls it again in a later block; the owner renounced',
    [
      propose(5n, 'function processBudget(uint256 amount)'),
      propose(0n, 'function processBudget(uint256 amount)'),
    ],
  ),
  t_lb_gas_price_budget: budget(
    'TnLbGasPriceBudget',
    'Paid Keeper',
    'PDKP',
    'a council budget the keeper mints in a later block, only in a transaction that pays for its gas; the owner renounced',
  ),
  t_lb_crowded_seconds: budget(
    'TnLbCrowdedSeconds',
    'Harvest Budget',
    'HVBG',
    'a council budget the keeper ratifies in a later block, beside six housekeeping functions that refuse every call while there is nothing to harvest; the owner renounced',
    [propose(5n), keeper('function ratifyBudget()')],
  ),
  t_lb_honest_epoch: {
    contract: 'TnLbHonestEpoch',
    name: 'Epoch Emission',
    symbol: 'EPEM',
    args: (c) => ['Epoch Emission', 'EPEM', c.supply, c.wallet('lb.treasury')],
    market: 'healthy_locked',
    pattern:
      'the keeper opens an epoch, and from the next block anyone mints its emission, at most 1 % of the supply, to the treasury',
    labels: benign('benign_unusual'),
  },
  t_lb_honest_queued_fee: {
    contract: 'TnLbHonestQueuedFee',
    name: 'Queued Fee',
    symbol: 'QDFE',
    args: (c) => ['Queued Fee', 'QDFE', c.supply],
    market: 'healthy_locked',
    launch: [setPair],
    pattern: 'the owner queues a sell fee of at most 5 %, which anyone applies an hour later',
    labels: benign('benign_unusual'),
  },
  t_lb_honest_block_timelock: {
    contract: 'TnLbHonestBlockTimelock',
    name: 'Block Timelock',
    symbol: 'BKTL',
    args: (c) => ['Block Timelock', 'BKTL', c.supply],
    market: 'healthy_locked',
    pattern: 'the owner queues a mint that can run only 7,200 blocks (a day of Ethereum blocks) later',
    labels: benign('benign_unusual'),
  },
  t_lb_window_budget: budget(
    'TnLbWindowBudget',
    'Grace Budget',
    'GRBG',
    'a council budget the keeper may mint from a minute to six hours after it was proposed; the owner renounced',
    [propose(5n), keeper('function executeBudget()', { afterSeconds: 120 })],
  ),
  t_lb_clock_rate_budget: budget(
    'TnLbClockRateBudget',
    'Paced Budget',
    'PCBG',
    'a council budget the keeper mints in a later block, only where the clock moved at most 30 s a block since the proposal; the owner renounced',
  ),
  t_lb_proposal_id_budget: budget(
    'TnLbProposalIdBudget',
    'Numbered Budget',
    'NMBG',
    'council proposals are numbered, and the keeper executes one by its id in a later block; the owner renounced',
    [propose(5n), { signature: 'function executeBudget(uint256 id)', args: () => [0n] }],
  ),
  t_lb_percent_budget: budget(
    'TnLbPercentBudget',
    'Percent Budget',
    'PRBG',
    'the council proposes inflation in percent of the supply (a uint16, up to 1,000 %), which the keeper mints in a later block; the owner renounced',
    [
      { signature: 'function proposeInflation(uint16 percent)', args: () => [500], from: COUNCIL },
      keeper('function executeInflation()'),
    ],
  ),
  t_lb_two_setter_budget: budget(
    'TnLbTwoSetterBudget',
    'Two Key Budget',
    'TKBG',
    'the council sets a recipient and proposes an amount, both needed, and the keeper mints it in a later block; the owner renounced',
    [
      { signature: 'function setRecipient(address to)', args: (c) => [c.wallet(COUNCIL)], from: COUNCIL },
      propose(5n),
      keeper(),
    ],
  ),
  t_lb_confirm_budget: budget(
    'TnLbConfirmBudget',
    'Confirmed Budget',
    'CFBG',
    'the council proposes, the keeper confirms in a later block and executes in a block after that; the owner renounced',
    [propose(5n), keeper('function confirmBudget()'), keeper()],
  ),
  t_lb_base_fee_budget: budget(
    'TnLbBaseFeeBudget',
    'Fee Aware',
    'FEAW',
    'a council budget the keeper mints in a later block, only in a block with a base fee; the owner renounced',
  ),
  t_lb_randao_budget: budget(
    'TnLbRandaoBudget',
    'Random Aware',
    'RNAW',
    'a council budget the keeper mints in a later block, only in a block whose prevrandao is not zero; the owner renounced',
  ),
  t_lb_cancel_masked: budget(
    'TnLbCancelMasked',
    'Withdrawn Budget',
    'WDBG',
    'a council budget the keeper mints in a later block; the council may also withdraw it, which writes a log entry; the owner renounced',
  ),
  t_lb_honest_lp_burn_switch: {
    contract: 'TnLbHonestLpBurnSwitch',
    name: 'Auto Burn',
    symbol: 'ATBN',
    args: (c) => ['Auto Burn', 'ATBN', c.supply],
    market: 'healthy_locked',
    launch: [setPair],
    pattern:
      "the auto-LP-burn template: once the owner switches it on, a sell an hour after the last burn burns 0.25 % of the pool's tokens and syncs the pair (the price rises)",
    labels: benign('benign_unusual'),
  },
  t_lb_honest_buyback_switch: {
    contract: 'TnLbHonestBuybackSwitch',
    name: 'Buyback',
    symbol: 'BYBK',
    args: (c) => ['Buyback', 'BYBK', c.supply],
    market: 'healthy_locked',
    launch: [setPair, { signature: 'function fund() payable', value: parseEther('1') }],
    pattern:
      "buyback and burn: once the owner switches it on, a sell at most once an hour spends 0.5 ETH of the contract's own on tokens from the pool, sent to the dead address",
    labels: benign('benign_unusual'),
  },
  t_lb_honest_lp_burn_clock: {
    contract: 'TnLbHonestLpBurnClock',
    name: 'Clock Burn',
    symbol: 'CLBN',
    args: (c) => ['Clock Burn', 'CLBN', c.supply],
    market: 'healthy_locked',
    launch: [setPair],
    pattern:
      "the auto-LP-burn template on from launch: a sell every two hours burns 0.25 % of the pool's tokens and syncs the pair",
    labels: benign('benign_unusual'),
  },
};
