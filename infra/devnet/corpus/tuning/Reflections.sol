// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Reflection tuning tokens: every taxed transfer hands its fee to the holders by shrinking the
// reflected total (each balance is a reflected amount over one rate), and the owner may keep an
// account out of the reflections (the pool, from launch, in two of them) and take it back in.
// Taking it back in is where they differ. One puts the account back without restating what it
// holds at today's rate: the reflected amount it kept from before it left is worth more than its
// tokens, so taking the pool back in, once trading has paid reflections, moves a slice of every
// holder's balance into the pool (where anyone may skim the surplus). The other restates it, and
// nobody's balance moves.

interface ITnReflectFactory {
    function createPair(address a, address b) external returns (address);
}

interface ITnReflectRouter {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

abstract contract TnReflectBase {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    uint256 public constant REFLECT_BPS = 400;

    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    address public owner;
    address public immutable pair;

    uint256 internal immutable tokenTotal;
    uint256 internal reflectedTotal;
    mapping(address => uint256) internal reflected;
    /// Tokens of accounts kept out of the reflections (their balance is this, not reflected / rate).
    mapping(address => uint256) internal tokensApart;
    mapping(address => bool) public isExcludedFromReward;
    address[] internal apart;
    mapping(address => bool) public isExcludedFromFee;
    mapping(address => mapping(address => uint256)) public allowance;

    modifier onlyOwner() {
        require(msg.sender == owner, "not the owner");
        _;
    }

    constructor(string memory name_, string memory symbol_, uint256 supply, address router, bool poolApart) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        tokenTotal = supply;
        reflectedTotal = type(uint256).max - (type(uint256).max % supply);
        reflected[msg.sender] = reflectedTotal;
        isExcludedFromFee[msg.sender] = true;
        isExcludedFromFee[address(this)] = true;
        pair = ITnReflectFactory(ITnReflectRouter(router).factory()).createPair(
            address(this), ITnReflectRouter(router).WETH()
        );
        // The pool earns no reflections: they all go to the holders.
        if (poolApart) _keepApart(pair);
        emit OwnershipTransferred(address(0), msg.sender);
        emit Transfer(address(0), msg.sender, supply);
    }

    function totalSupply() external view returns (uint256) {
        return tokenTotal;
    }

    function balanceOf(address account) public view returns (uint256) {
        if (isExcludedFromReward[account]) return tokensApart[account];
        return reflected[account] / _rate();
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

    function excludeFromReward(address account) external onlyOwner {
        _keepApart(account);
    }

    function setExcludedFromFee(address account, bool excluded) external onlyOwner {
        isExcludedFromFee[account] = excluded;
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(owner, address(0));
        owner = address(0);
    }

    function transferOwnership(address next) external onlyOwner {
        require(next != address(0), "zero owner");
        emit OwnershipTransferred(owner, next);
        owner = next;
    }

    /// Reflected units per token among the accounts that share the reflections.
    function _rate() internal view returns (uint256) {
        uint256 rSupply = reflectedTotal;
        uint256 tSupply = tokenTotal;
        for (uint256 i = 0; i < apart.length; i++) {
            address account = apart[i];
            if (reflected[account] > rSupply || tokensApart[account] > tSupply) return reflectedTotal / tokenTotal;
            rSupply -= reflected[account];
            tSupply -= tokensApart[account];
        }
        if (tSupply == 0 || rSupply < reflectedTotal / tokenTotal) return reflectedTotal / tokenTotal;
        return rSupply / tSupply;
    }

    function _keepApart(address account) internal {
        require(!isExcludedFromReward[account], "already apart");
        if (reflected[account] > 0) tokensApart[account] = reflected[account] / _rate();
        isExcludedFromReward[account] = true;
        apart.push(account);
    }

    function _dropFromApart(address account) internal {
        isExcludedFromReward[account] = false;
        tokensApart[account] = 0;
        for (uint256 i = 0; i < apart.length; i++) {
            if (apart[i] == account) {
                apart[i] = apart[apart.length - 1];
                apart.pop();
                return;
            }
        }
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(from != address(0) && to != address(0), "zero address");
        require(balanceOf(from) >= value, "balance");
        uint256 fee = isExcludedFromFee[from] || isExcludedFromFee[to] ? 0 : (value * REFLECT_BPS) / 10_000;
        uint256 rate = _rate();
        uint256 rValue = value * rate;
        uint256 rFee = fee * rate;
        reflected[from] -= rValue;
        if (isExcludedFromReward[from]) tokensApart[from] -= value;
        reflected[to] += rValue - rFee;
        if (isExcludedFromReward[to]) tokensApart[to] += value - fee;
        // The fee leaves the reflected total: every sharing balance is worth a little more.
        reflectedTotal -= rFee;
        emit Transfer(from, to, value - fee);
    }
}

/// Takes an account back into the reflections as it stands: its kept-apart token count dropped,
/// its reflected amount from before it left kept.
contract TnReflectStaleToken is TnReflectBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address router, bool poolApart)
        TnReflectBase(name_, symbol_, supply, router, poolApart)
    {}

    function includeInReward(address account) external onlyOwner {
        require(isExcludedFromReward[account], "already sharing");
        _dropFromApart(account);
    }
}

/// Takes an account back into the reflections at today's rate: its reflected amount restated from
/// its tokens, and the reflected total with it, so the rate and every balance stay where they were.
contract TnReflectRestatedToken is TnReflectBase {
    constructor(string memory name_, string memory symbol_, uint256 supply, address router, bool poolApart)
        TnReflectBase(name_, symbol_, supply, router, poolApart)
    {}

    function includeInReward(address account) external onlyOwner {
        require(isExcludedFromReward[account], "already sharing");
        uint256 rate = _rate();
        uint256 restated = tokensApart[account] * rate;
        reflectedTotal = reflectedTotal - reflected[account] + restated;
        reflected[account] = restated;
        _dropFromApart(account);
    }
}
