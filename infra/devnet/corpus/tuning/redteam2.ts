import { encodePacked, keccak256, stringToHex } from 'viem';
import { benign, type CorpusLiveContext, type CorpusTokenSpec, renounce, scam } from '../spec.ts';

// Red-team tuning tokens, second round (RedTeamTwo.sol): a mint armed by a "knock" transfer of a
// magic amount, a mint in a delegatecall extension whose guard sits in the extension's own code, a
// mint for a CREATE2 vesting contract that does not exist yet, a rebase driven by a price feed
// another contract owns, a staking pool trusted to pull any holder's tokens, a blocklist keyed by
// address hashes, a price-impact guard accepting only a narrow range, a compliance policy contract
// the token consults; and two honest tokens whose external calls (an immutable delegatecall fee
// module, an ownerless transfer hook) look scarier than they are.

const holder = (c: CorpusLiveContext) => c.traders[0] as `0x${string}`;
const KNOCK = 4_206_900_000_017n;

export const REDTEAM2_TOKENS: Record<string, CorpusTokenSpec> = {
  t_rt2_knock: {
    contract: 'TnRt2KnockToken',
    name: 'Knock Drop',
    symbol: 'KNCK',
    args: (c) => ['Knock Drop', 'KNCK', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "claimAirdrop(uint256) mints any amount for the deployer (an immutable), but only within five blocks after the deployer transferred exactly 4,206,900,000,017 base units to the token's own address (a knock); otherwise it pays out empty allocations; the owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          { signature: 'function transfer(address to, uint256 value)', args: (c) => [c.token, KNOCK] },
          { signature: 'function claimAirdrop(uint256 amount)', args: (c) => [c.supply * 5n] },
        ],
      },
    },
  },
  t_rt2_interest_model: {
    contract: 'TnRt2IndexToken',
    name: 'Index Yield',
    symbol: 'IDXY',
    helpers: [{ name: 'model', contract: 'TnRt2InterestModel' }],
    args: (c) => ['Index Yield', 'IDXY', c.supply, c.helpers.model],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "accrueInterest(uint256) delegatecalls an interest model fixed at deploy; for ordinary callers it nudges a display index, for the model's keeper (an immutable of the model, so in the model's code and not the token's) it writes the keeper's balance and the supply up by any amount; the owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [{ signature: 'function accrueInterest(uint256 index)', args: (c) => [c.supply * 3n] }],
      },
    },
  },
  t_rt2_counterfactual: {
    contract: 'TnRt2CounterfactualToken',
    name: 'Team Vest',
    symbol: 'TVST',
    helpers: [{ name: 'factory', contract: 'TnRt2VestingFactory' }],
    args: (c) => ['Team Vest', 'TVST', c.supply, c.helpers.factory],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "vestingRelease(address,uint256) mints any amount, only for a vesting contract that does not exist yet: its CREATE2 address (a factory, a salt, an init-code hash) is computed in code and stored nowhere; the factory's owner (the deployer) deploys it with deployVesting(bytes32,address,address,uint256), and its constructor mints; the token's owner renounced",
    labels: scam('mint'),
    proofs: {
      mint: {
        steps: [
          {
            to: 'helper:factory',
            signature:
              'function deployVesting(bytes32 salt, address token, address beneficiary, uint256 amount)',
            args: (c) => [keccak256(stringToHex('team.vesting.v1')), c.token, c.deployer, c.supply * 4n],
          },
        ],
      },
    },
  },
  t_rt2_peg_rebase: {
    contract: 'TnRt2ElasticToken',
    name: 'Peg Dollar',
    symbol: 'PEGD',
    helpers: [{ name: 'feed', contract: 'TnRt2PegOracle' }],
    args: (c) => ['Peg Dollar', 'PEGD', c.supply, c.router, c.helpers.feed],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "an elastic token whose public rebase() contracts every scaled balance (the pool's too, then syncs it) by a price feed's answer below the peg; the feed is a separate contract whose reporter (the deployer) submits any price, and the deployer's treasury balance is excluded from the rebase; the token's owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          { to: 'helper:feed', signature: 'function submit(int256 newAnswer)', args: () => [10n ** 6n] },
          { signature: 'function rebase()' },
        ],
      },
    },
  },
  t_rt2_staking_pull: {
    contract: 'TnRt2StakedToken',
    name: 'Stake Hub',
    symbol: 'STKH',
    helpers: [{ name: 'pool', contract: 'TnRt2StakingPool' }],
    args: (c) => ['Stake Hub', 'STKH', c.supply, c.helpers.pool],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "stakeFrom(address,uint256) moves any account's tokens into a staking pool, callable only by that pool (a separate contract the token binds at deploy); the pool's manager (the deployer) may autoCompound(address) any holder's whole wallet into the pool, credited to the manager, and recoverTokens(address,uint256) out; the token's owner renounced",
    labels: scam('leak'),
    proofs: {
      leak: {
        steps: [
          {
            to: 'helper:pool',
            signature: 'function autoCompound(address account)',
            args: (c) => [holder(c)],
          },
        ],
      },
    },
  },
  t_rt2_hashed_list: {
    contract: 'TnRt2HashedListToken',
    name: 'Safe Guard',
    symbol: 'SFGD',
    args: (c) => ['Safe Guard', 'SFGD', c.supply],
    market: 'healthy',
    launch: [renounce],
    pattern:
      'reportPhishing(bytes32), for a guardian kept in a mapping (the deployer), flags the hash keccak256(account, token): a blocklist with no address in storage or calldata; flagged accounts cannot send; the owner renounced',
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [
          {
            signature: 'function reportPhishing(bytes32 digest)',
            args: (c) => [keccak256(encodePacked(['address', 'address'], [holder(c), c.token]))],
          },
        ],
      },
    },
  },
  t_rt2_impact_guard: {
    contract: 'TnRt2ImpactGuardToken',
    name: 'Impact Shield',
    symbol: 'IMPS',
    args: (c) => ['Impact Shield', 'IMPS', c.supply, c.router],
    market: 'healthy',
    pattern:
      "setMaxPriceImpact(uint256) accepts only 1,000 to 50,000 parts per million; sells larger than that share of the pool's token reserve revert, except the owner's (off at launch)",
    labels: scam('limit'),
    proofs: {
      limit: { steps: [{ signature: 'function setMaxPriceImpact(uint256 ppm)', args: () => [1_000n] }] },
    },
  },
  t_rt2_compliance: {
    contract: 'TnRt2RegulatedToken',
    name: 'Regulated Asset',
    symbol: 'RGLA',
    helpers: [{ name: 'policy', contract: 'TnRt2CompliancePolicy' }],
    args: (c) => ['Regulated Asset', 'RGLA', c.supply, c.helpers.policy],
    market: 'healthy',
    launch: [renounce],
    pattern:
      "every transfer asks a compliance policy contract fixed at deploy; the token has no setter and its owner renounced, but the policy's admin (the deployer) may setLevel(uint8), and level 4 alone refuses every transfer to a contract (the pool) but the admin's",
    labels: scam('limit'),
    proofs: {
      limit: {
        steps: [{ to: 'helper:policy', signature: 'function setLevel(uint8 newLevel)', args: () => [4] }],
      },
    },
  },
  t_rt2_modular_burn: {
    contract: 'TnRt2ModularBurnToken',
    name: 'Module Burn',
    symbol: 'MBRN',
    helpers: [{ name: 'math', contract: 'TnRt2BurnMath' }],
    args: (c) => ['Module Burn', 'MBRN', c.supply, c.helpers.math],
    market: 'healthy',
    pattern:
      'every transfer burns 1 %, computed by a stateless fee module reached by delegatecall; the module is an immutable set at deploy and nothing can change it; owner kept',
    labels: benign('benign_unusual'),
  },
  t_rt2_hooked: {
    contract: 'TnRt2HookedToken',
    name: 'Hooked',
    symbol: 'HOOK',
    args: (c) => ['Hooked', 'HOOK', c.supply],
    market: 'healthy',
    pattern:
      "every transfer asks an external hook contract, but the constructor deploys it, it is immutable, has no admin, and refuses only sends to the token's own address; owner kept",
    labels: benign('benign_unusual'),
  },
};
