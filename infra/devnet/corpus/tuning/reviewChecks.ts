import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Written after vigil-risk/16 by the model's authors (ReviewChecks.sol): two from attacks its
// reviewer made on the probe, so each attack stays a test (a sell cooldown each sell starts, beside
// a freeze armed for the next receipt; a flash lender whose fee a holder that answered every loan
// would pay), and a false-positive check of the forwarder round (ERC-2771 with a mended Multicall).
// Written during vigil-risk/19: a mint only a two-day TimelockController can make (a known false
// positive: powers are called as the contract that holds them, whose own delay is not read), and
// two policies its reviewer's attacks on the stored-field round suggested (a tier kept per token
// and asked after the balances move; bit flags packed next to an owner), and a mint under a name
// whose selector starts with a zero byte (from the attacks on a withdrawn timelock reading).
// Written during vigil-risk/23: a sell fee hidden from a sell read as the pair's balance growth
// less its reserve's (a pair left short of its reserve, synced by every sell).

const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;

export const REVIEW_CHECK_TOKENS: Record<string, CorpusTokenSpec> = {
  t_check_cooldown_watch: {
    contract: 'TnCooldownWatchToken',
    name: 'Steady Exit',
    symbol: 'STDX',
    args: (c) => ['Steady Exit', 'STDX', c.supply, c.router],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'one sell a minute per wallet (each sell starts the wait), and watch(address), for the deployer kept in an immutable, marks an account frozen at its next receipt; the owner renounced',
    labels: scam('limit'),
    proofs: {
      limit: {
        // Past any wait the market's own sells started.
        afterSeconds: 120,
        steps: [
          { signature: 'function watch(address account)', args: (c) => [holder(c)] },
          {
            signature: 'function transfer(address to, uint256 value) returns (bool)',
            args: (c) => [holder(c), 1n],
          },
        ],
      },
    },
  },
  t_check_fee_flash_lender: {
    contract: 'TnFeeFlashLenderToken',
    name: 'Lending Desk',
    symbol: 'LDSK',
    args: (c) => ['Lending Desk', 'LDSK', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "lends 1 % of the supply, kept by the token contract, to any receiver for a 0.3 % fee taken back through the receiver's ERC-3156 callback and allowance; a wallet answers no callback, so no holder can be made to pay; the owner renounced",
    labels: benign('benign_unusual'),
  },
  t_check_forwarded_batch: {
    contract: 'TnForwardedBatchToken',
    name: 'Relay Ready',
    symbol: 'RLRD',
    helpers: [{ name: 'forwarder', contract: 'TnCheckForwarder' }],
    args: (c) => ['Relay Ready', 'RLRD', c.supply, c.helpers.forwarder],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "OpenZeppelin's ERC-2771 behind its signature-checking forwarder, with its Multicall, which appends the request's sender to each item (as mended in 5.0.1), and ERC20Burnable: nobody but a holder moves or burns a holder's tokens; the owner renounced",
    labels: benign('benign_unusual'),
  },
  t_check_governed_mint: {
    contract: 'TnGovernedMintToken',
    name: 'Council Issue',
    symbol: 'CNCL',
    helpers: [
      {
        name: 'timelock',
        contract: 'DevnetTimelock',
        args: (c) => [2n * 86_400n, [c.deployer], [c.deployer]],
      },
    ],
    args: (c) => ['Council Issue', 'CNCL', c.supply],
    market: 'healthy',
    launch: [
      { signature: 'function transferOwnership(address newOwner)', args: (c) => [c.helpers.timelock] },
    ],
    pattern:
      "mint(address,uint256) with no cap, for the owner, which is OpenZeppelin's TimelockController with a two-day delay (the deployer proposes and executes; the delay changes only through the timelock itself): every mint waits two days in public",
    labels: benign('benign_unusual'),
  },
  t_check_rule_book: {
    contract: 'TnCheckRuleBookToken',
    name: 'Rule Book',
    symbol: 'RBOK',
    helpers: [{ name: 'book', contract: 'TnCheckRuleBook' }],
    args: (c) => ['Rule Book', 'RBOK', c.supply, c.helpers.book],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "every transfer asks a rule book shared by several tokens, after the balances move; the token's owner renounced, but the book's owner (the deployer) may setTier(address,uint8) the token's tier, and tier 4 refuses every transfer to a contract (the pool) but the owner's",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            to: 'helper:book',
            signature: 'function setTier(address token, uint8 tier)',
            args: (c) => [c.token, 4],
          },
        ],
      },
    },
  },
  t_check_flag_guard: {
    contract: 'TnCheckFlagGuardToken',
    name: 'Flag Guard',
    symbol: 'FLGD',
    helpers: [{ name: 'guard', contract: 'TnCheckFlagGuard' }],
    args: (c) => ['Flag Guard', 'FLGD', c.supply, c.helpers.guard],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "every transfer asks a guard whose settings are bit flags packed next to its owner (working at 2); the token's owner renounced, but the guard's owner (the deployer) may setFlags(uint8), and flag 4 refuses every transfer to a contract (the pool) but the owner's",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ to: 'helper:guard', signature: 'function setFlags(uint8 newFlags)', args: () => [4] }],
      },
    },
  },
  t_check_zero_led: {
    contract: 'TnCheckZeroLedToken',
    name: 'Rebate Pool',
    symbol: 'RBTP',
    args: (c) => ['Rebate Pool', 'RBTP', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'claimRebate144(address,uint256) mints any amount for the deployer (an immutable); its name was mined so its selector starts with a zero byte (0x0055d20f), which the compiler pushes with three bytes, not four; the owner renounced',
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            signature: 'function claimRebate144(address to, uint256 amount)',
            args: (c) => [c.deployer, c.supply],
          },
        ],
      },
    },
  },
  t_check_unsynced_fee: {
    contract: 'TnCheckUnsyncedFeeToken',
    name: 'Quiet Fee',
    symbol: 'QTFE',
    args: (c) => ['Quiet Fee', 'QTFE', c.supply],
    market: 'healthy',
    launch: [{ signature: 'function setPair(address pair_)', args: (c) => [c.pair] }],
    pattern:
      "the owner sets a sell fee of up to 100 %, which also takes half a per cent of the pool's tokens out of the pair without a sync; every sell syncs the pair first",
    // Each call takes half a per cent of the pool's tokens, as often as the owner likes: a leak too.
    labels: scam('limit', 'leak'),
    proofs: {
      limit: { steps: [{ signature: 'function setSellFee(uint256 percent)', args: () => [90n] }] },
      leak: { steps: [{ signature: 'function setSellFee(uint256 percent)', args: () => [0n] }] },
    },
  },
};
