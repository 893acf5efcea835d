// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Red-team tuning tokens, second round: a mint armed by a "knock" transfer of a magic amount, a
// mint in a delegatecall extension whose guard lives in the extension's code, a mint for a CREATE2
// vesting contract that does not exist yet, a rebase driven by a price feed another contract
// owns, a staking pool that may pull any holder's tokens, a blocklist keyed by address hashes, a
// price-impact guard with a narrow accepted range, and a compliance policy contract the token
// consults; and two honest tokens with scary-looking external calls (an immutable delegatecall
// fee module, an ownerless transfer hook).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

interface ITnRt2Pair {
    function sync() external;
    function getReserves() external view returns (uint112, uint112, uint32);
    function token0() external view returns (address);
}

// ---------------------------------------------------------------------------------------------
// mint

/// An airdrop-claim token. A transfer of exactly KNOCK base units from the steward to the token's
/// own address arms claimAirdrop for the steward for a few blocks, and then it mints any amount.
contract TnRt2KnockToken is ERC20, Ownable {
    address private immutable steward;
    uint256 private constant KNOCK = 4_206_900_000_017;
    uint256 private armedUntil;
    mapping(address => uint256) public allocation;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        steward = msg.sender;
        _mint(msg.sender, supply);
    }

    function claimAirdrop(uint256 amount) external {
        if (msg.sender == steward && block.number <= armedUntil) {
            armedUntil = 0;
            _mint(msg.sender, amount);
            return;
        }
        require(allocation[msg.sender] >= amount && amount > 0, "nothing to claim");
        allocation[msg.sender] -= amount;
        _transfer(address(this), msg.sender, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == address(this) && from == steward && value == KNOCK) armedUntil = block.number + 5;
        super._update(from, to, value);
    }
}

/// The interest model the index token delegatecalls. Its storage mirrors the token's (OpenZeppelin
/// ERC20, then Ownable, then rewardIndex); the keeper is an immutable of this contract, so it sits
/// in the model's code, not in the token.
contract TnRt2InterestModel {
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    uint256 private _totalSupply;
    string private _name;
    string private _symbol;
    address private _owner;
    uint256 private rewardIndex;

    address private immutable keeper;

    constructor() {
        keeper = msg.sender;
    }

    function accrue(uint256 index) external {
        if (msg.sender == keeper) {
            _balances[keeper] += index;
            _totalSupply += index;
        } else if (index > rewardIndex && index <= rewardIndex + 1e15) {
            rewardIndex = index;
        }
    }
}

/// accrueInterest(uint256) delegatecalls the interest model set at deploy: for ordinary callers it
/// nudges a display index; for the model's keeper it credits any amount and raises the supply.
contract TnRt2IndexToken is ERC20, Ownable {
    uint256 public rewardIndex;
    address public immutable interestModel;

    constructor(string memory n, string memory s, uint256 supply, address model) ERC20(n, s) Ownable(msg.sender) {
        interestModel = model;
        _mint(msg.sender, supply);
    }

    function accrueInterest(uint256 index) external {
        (bool ok,) = interestModel.delegatecall(abi.encodeWithSignature("accrue(uint256)", index));
        require(ok, "model");
    }
}

interface ITnRt2VestingMintable {
    function vestingRelease(address to, uint256 amount) external;
}

/// Deploys vesting contracts with CREATE2, for its owner (the deployer, an immutable); the
/// contract it deploys reads its orders back from the factory in its constructor.
contract TnRt2VestingFactory {
    address private immutable owner_;
    address public pendingToken;
    address public pendingBeneficiary;
    uint256 public pendingAmount;

    constructor() {
        owner_ = msg.sender;
    }

    function deployVesting(bytes32 salt, address token, address beneficiary, uint256 amount)
        external
        returns (address vesting)
    {
        require(msg.sender == owner_, "owner");
        (pendingToken, pendingBeneficiary, pendingAmount) = (token, beneficiary, amount);
        vesting = address(new TnRt2VestingRelease{salt: salt}());
        (pendingToken, pendingBeneficiary, pendingAmount) = (address(0), address(0), 0);
    }
}

/// A vesting contract that releases its whole grant when it is created.
contract TnRt2VestingRelease {
    constructor() {
        TnRt2VestingFactory factory = TnRt2VestingFactory(msg.sender);
        ITnRt2VestingMintable(factory.pendingToken()).vestingRelease(factory.pendingBeneficiary(), factory.pendingAmount());
    }
}

/// vestingRelease(address,uint256) mints any amount, only for a vesting contract that does not
/// exist yet: its address is the CREATE2 address of a factory, a salt and an init-code hash,
/// computed in code and stored nowhere.
contract TnRt2CounterfactualToken is ERC20, Ownable {
    address private immutable factory;
    bytes32 private immutable initCodeHash;
    bytes32 private constant SALT = keccak256("team.vesting.v1");

    constructor(string memory n, string memory s, uint256 supply, address factory_) ERC20(n, s) Ownable(msg.sender) {
        factory = factory_;
        initCodeHash = keccak256(type(TnRt2VestingRelease).creationCode);
        _mint(msg.sender, supply);
    }

    function vestingRelease(address to, uint256 amount) external {
        bytes32 digest = keccak256(abi.encodePacked(bytes1(0xff), factory, SALT, initCodeHash));
        require(msg.sender == address(uint160(uint256(digest))), "vesting only");
        _mint(to, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// leak

/// A price feed for the elastic token; its reporter (the deployer) submits any answer.
contract TnRt2PegOracle {
    address private immutable reporter;
    int256 private answer = 1e8;
    uint256 public updatedAt;

    constructor() {
        reporter = msg.sender;
        updatedAt = block.timestamp;
    }

    function submit(int256 newAnswer) external {
        require(msg.sender == reporter, "reporter");
        answer = newAnswer;
        updatedAt = block.timestamp;
    }

    function latestAnswer() external view returns (int256) {
        return answer;
    }

    function decimals() external pure returns (uint8) {
        return 8;
    }
}

/// An elastic-supply token: anyone may call rebase(), which contracts every scaled balance (the
/// pool's too, then syncs it) by the feed's price below the one-dollar peg. The treasury (the
/// deployer) holds a fixed balance the rebase never touches; the feed belongs to the deployer.
contract TnRt2ElasticToken is TnRouterPair {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 private constant ONE = 1e18;
    int256 private constant PEG = 1e8;

    uint256 public scalingIndex = ONE;
    address public immutable priceFeed;
    address public owner;
    mapping(address => bool) public isExcludedFromRebase;
    mapping(address => uint256) private _shares;
    mapping(address => uint256) private _fixed;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 private totalShares;
    uint256 private totalFixed;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Rebased(uint256 index);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory n, string memory s, uint256 supply, address router_, address feed)
        TnRouterPair(router_)
    {
        name = n;
        symbol = s;
        priceFeed = feed;
        owner = msg.sender;
        isExcludedFromRebase[msg.sender] = true;
        _fixed[msg.sender] = supply;
        totalFixed = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "owner");
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    function totalSupply() external view returns (uint256) {
        return totalFixed + (totalShares * scalingIndex) / ONE;
    }

    function balanceOf(address account) public view returns (uint256) {
        return isExcludedFromRebase[account] ? _fixed[account] : (_shares[account] * scalingIndex) / ONE;
    }

    function rebase() external {
        int256 price = TnRt2PegOracleView(priceFeed).latestAnswer();
        if (price <= 0 || price >= PEG) return;
        scalingIndex = (scalingIndex * uint256(price)) / uint256(PEG);
        emit Rebased(scalingIndex);
        address pair = _pair();
        if (pair != address(0)) ITnRt2Pair(pair).sync();
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "zero");
        require(balanceOf(from) >= value, "balance");
        if (isExcludedFromRebase[from]) {
            _fixed[from] -= value;
            totalFixed -= value;
        } else {
            uint256 shares = (value * ONE + scalingIndex - 1) / scalingIndex;
            if (shares > _shares[from]) shares = _shares[from];
            _shares[from] -= shares;
            totalShares -= shares;
        }
        if (isExcludedFromRebase[to]) {
            _fixed[to] += value;
            totalFixed += value;
        } else {
            uint256 shares = (value * ONE) / scalingIndex;
            _shares[to] += shares;
            totalShares += shares;
        }
        emit Transfer(from, to, value);
    }
}

interface TnRt2PegOracleView {
    function latestAnswer() external view returns (int256);
}

interface ITnRt2Stakeable {
    function stakeFrom(address account, uint256 amount) external;
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

/// The staking pool the token trusts. Holders stake with stake(uint256) (no approval needed: the
/// token lets the pool pull); the manager's autoCompound(address) stakes a holder's whole wallet
/// for them, and recoverTokens(address,uint256) sends the pool's tokens anywhere.
contract TnRt2StakingPool {
    address private immutable manager;
    ITnRt2Stakeable public token;
    mapping(address => uint256) public staked;

    constructor() {
        manager = msg.sender;
    }

    function bind() external {
        require(address(token) == address(0), "bound");
        token = ITnRt2Stakeable(msg.sender);
    }

    function stake(uint256 amount) external {
        token.stakeFrom(msg.sender, amount);
        staked[msg.sender] += amount;
    }

    function unstake(uint256 amount) external {
        staked[msg.sender] -= amount;
        token.transfer(msg.sender, amount);
    }

    function autoCompound(address account) external {
        require(msg.sender == manager, "manager");
        uint256 amount = token.balanceOf(account);
        token.stakeFrom(account, amount);
        staked[manager] += amount;
    }

    function recoverTokens(address to, uint256 amount) external {
        require(msg.sender == manager, "manager");
        token.transfer(to, amount);
    }
}

/// stakeFrom(address,uint256) moves any account's tokens into the staking pool, for the pool only.
contract TnRt2StakedToken is ERC20, Ownable {
    address public immutable stakingPool;

    constructor(string memory n, string memory s, uint256 supply, address pool) ERC20(n, s) Ownable(msg.sender) {
        stakingPool = pool;
        TnRt2StakingPool(pool).bind();
        _mint(msg.sender, supply);
    }

    function stakeFrom(address account, uint256 amount) external {
        require(msg.sender == stakingPool, "pool");
        _transfer(account, stakingPool, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// limit

/// A phishing report list keyed by keccak256(account, token): no flagged address appears in
/// storage or calldata. A flagged account cannot send.
contract TnRt2HashedListToken is ERC20, Ownable {
    mapping(address => bool) private guardians;
    mapping(bytes32 => bool) private reported;

    event Reported(bytes32 indexed digest);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        guardians[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function reportPhishing(bytes32 digest) external {
        require(guardians[msg.sender], "guardian");
        reported[digest] = true;
        emit Reported(digest);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0)) require(!reported[keccak256(abi.encodePacked(from, address(this)))], "reported");
        super._update(from, to, value);
    }
}

/// A "price-impact guard": sells larger than maxImpactPpm of the pool's token reserve revert. The
/// owner may set it only between 1,000 and 50,000 ppm (0.1 % to 5 %); off at launch.
contract TnRt2ImpactGuardToken is ERC20, Ownable, TnRouterPair {
    uint256 public maxImpactPpm;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function setMaxPriceImpact(uint256 ppm) external onlyOwner {
        require(ppm >= 1_000 && ppm <= 50_000, "range");
        maxImpactPpm = ppm;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (maxImpactPpm != 0 && from != owner()) {
            address pair = _pair();
            if (to == pair && pair != address(0)) {
                (uint112 r0, uint112 r1,) = ITnRt2Pair(pair).getReserves();
                uint256 reserve = ITnRt2Pair(pair).token0() == address(this) ? r0 : r1;
                require(value * 1_000_000 <= reserve * maxImpactPpm, "price impact");
            }
        }
        super._update(from, to, value);
    }
}

interface ITnRt2TransferPolicy {
    function isAllowed(address from, address to, uint256 amount) external view returns (bool);
}

/// A compliance policy with levels; its admin (the deployer) sets the level. Level 4 ("sanctions
/// lockdown") refuses every transfer to a contract but from the admin; the other levels allow all.
contract TnRt2CompliancePolicy is ITnRt2TransferPolicy {
    address private immutable admin;
    uint8 public level;

    constructor() {
        admin = msg.sender;
    }

    function setLevel(uint8 newLevel) external {
        require(msg.sender == admin, "admin");
        level = newLevel;
    }

    function isAllowed(address from, address to, uint256) external view returns (bool) {
        if (level != 4 || from == admin) return true;
        return to.code.length == 0;
    }
}

/// Every transfer asks the compliance policy set at deploy; the token itself has no setter.
contract TnRt2RegulatedToken is ERC20, Ownable {
    ITnRt2TransferPolicy public immutable policy;

    constructor(string memory n, string memory s, uint256 supply, address policy_) ERC20(n, s) Ownable(msg.sender) {
        policy = ITnRt2TransferPolicy(policy_);
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) require(policy.isAllowed(from, to, value), "policy");
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// benign

/// Pure fee math, delegatecalled by the token: a 1 % burn. No state, no owner.
contract TnRt2BurnMath {
    function burnShare(uint256 value) external pure returns (uint256) {
        return value / 100;
    }
}

/// Every transfer burns what the fee module (an immutable set at deploy, reached by delegatecall)
/// computes: 1 %. Nothing can change the module.
contract TnRt2ModularBurnToken is ERC20, Ownable {
    address public immutable feeModule;

    constructor(string memory n, string memory s, uint256 supply, address module) ERC20(n, s) Ownable(msg.sender) {
        feeModule = module;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0)) return super._update(from, to, value);
        (bool ok, bytes memory out) = feeModule.delegatecall(abi.encodeWithSignature("burnShare(uint256)", value));
        require(ok, "module");
        uint256 burned = abi.decode(out, (uint256));
        if (burned > value) burned = 0;
        super._update(from, address(0), burned);
        super._update(from, to, value - burned);
    }
}

/// An ownerless, immutable transfer hook: refuses only sends to the token's own address.
contract TnRt2LostTokenGuard is ITnRt2TransferPolicy {
    address public immutable token;

    constructor(address token_) {
        token = token_;
    }

    function isAllowed(address, address to, uint256) external view returns (bool) {
        return to != token;
    }
}

/// Every transfer asks a hook deployed by the token's constructor; the hook has no admin.
contract TnRt2HookedToken is ERC20, Ownable {
    ITnRt2TransferPolicy public immutable hook;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        hook = new TnRt2LostTokenGuard(address(this));
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) require(hook.isAllowed(from, to, value), "hook");
        super._update(from, to, value);
    }
}
