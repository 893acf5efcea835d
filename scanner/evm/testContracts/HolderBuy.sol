// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Tokens for the size of the probe's holder (scanner/evm/holderBuy.test.ts) and the adversarial
/// review of it (holderBuy.attacks.test.ts). Sizes are for a listing of half a 1e27 supply beside
/// 10 ETH: a fiftieth (0.2 ETH) buys about 9.7e24, a hundredth (0.1 ETH) about 4.9e24, the default
/// 0.01 about 5.0e23; the holder sends half, sells an eighth before its receipt (only where its
/// later sell failed without any call) and a quarter after it.
abstract contract HbToken {
    string public name;
    string public symbol = "HB";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory tokenName, uint256 supply) {
        name = tokenName;
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    /// Once, after listing: the pool is then fixed.
    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = newPair;
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
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal {
        uint256 fee = from == owner || to == owner || pair == address(0) ? 0 : _fee(from, to, value);
        balanceOf[from] -= value;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee != 0) {
            balanceOf[owner] += fee;
            emit Transfer(from, owner, fee);
        }
    }

    /// The fee taken from a send (reverting where the send is refused).
    function _fee(address from, address to, uint256 value) internal virtual returns (uint256);
}

/// Attack 1a (scam): a fixed anti-whale cap on sells, set between the default holder's sell and
/// the larger holder's, hides an owner's sell fee of up to 99 %.
contract HbCapHidesFee is HbToken {
    uint256 public immutable maxSell;
    uint256 public sellFeeBps;

    constructor(uint256 supply, uint256 cap) HbToken("Cap Hides Fee", supply) {
        maxSell = cap;
    }

    function tune(uint256 bps) external onlyOwner {
        sellFeeBps = bps > 9900 ? 9900 : bps;
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair) return 0;
        require(value <= maxSell, "anti-whale");
        return (value * sellFeeBps) / 10_000;
    }
}

/// Attack 1b (scam): an "anti-sniper" rule freezes whoever buys more than `sniperAbove` in one buy,
/// which the larger holder does and the default one does not; the owner may freeze anyone.
contract HbWhaleFreeze is HbToken {
    uint256 public immutable sniperAbove;
    mapping(address => bool) public frozen;

    constructor(uint256 supply, uint256 above) HbToken("Whale Freeze", supply) {
        sniperAbove = above;
    }

    function flag(address account) external onlyOwner {
        frozen[account] = true;
    }

    function _fee(address from, address to, uint256 value) internal override returns (uint256) {
        require(!frozen[from], "frozen");
        if (from == pair && value > sniperAbove) frozen[to] = true;
        return 0;
    }
}

/// Attack 1c (scam): a fixed 95 % "whale tax" on sells above `whaleAbove` (between the two
/// holders' sells) leaves an owner's fee of up to 100 % for everyone under the 10-point rise the
/// limit rule asks for.
contract HbWhaleTaxHidesFee is HbToken {
    uint256 public immutable whaleAbove;
    uint256 public sellFeeBps;

    constructor(uint256 supply, uint256 above) HbToken("Whale Tax", supply) {
        whaleAbove = above;
    }

    function tune(uint256 bps) external onlyOwner {
        sellFeeBps = bps > 10_000 ? 10_000 : bps;
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair) return 0;
        uint256 bps = value > whaleAbove ? 9500 : 0;
        if (sellFeeBps > bps) bps = sellFeeBps;
        return (value * bps) / 10_000;
    }
}

/// Attack 2 (scam, a known limit): a fixed launch cap on buys under the larger buy makes the probe
/// fall back to 0.01; the owner may cap sells down to a floor between the two holders' sells.
contract HbLaunchCapFloor is HbToken {
    uint256 public immutable maxBuy;
    uint256 public immutable floor;
    uint256 public maxSell = type(uint256).max;

    constructor(uint256 supply, uint256 buyCap, uint256 sellFloor) HbToken("Launch Cap Floor", supply) {
        maxBuy = buyCap;
        floor = sellFloor;
    }

    function setMaxSell(uint256 amount) external onlyOwner {
        require(amount >= floor, "below the floor");
        maxSell = amount;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (from == pair) require(value <= maxBuy, "launch cap");
        if (to == pair) require(value <= maxSell, "max sell");
        return 0;
    }
}

/// The owner may cap sells down to `floor` and no lower, nothing else; and may set a sell fee of at
/// most 5 %. With the floor at 0.4 % of the pool's tokens (under the half a percent the docs say the
/// holder sells, over the quarter it sells) it is attack 5, a scam by the corpus's rule (its holder
/// sells 1.2 %); with the floor at 3 % of the pool it is an honest anti-whale token (attack 3a).
contract HbSellFloor is HbToken {
    uint256 public immutable floor;
    uint256 public maxSell = type(uint256).max;
    uint256 public sellFeeBps;

    constructor(uint256 supply, uint256 sellFloor) HbToken("Sell Floor", supply) {
        floor = sellFloor;
    }

    function setMaxSell(uint256 amount) external onlyOwner {
        require(amount >= floor, "below the floor");
        maxSell = amount;
    }

    function setSellFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "fee above 5 %");
        sellFeeBps = bps;
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair) return 0;
        require(value <= maxSell, "max sell");
        return (value * sellFeeBps) / 10_000;
    }
}

/// Attack 3b (honest): a fixed anti-whale cap on sells between the two holders' sells (no setter
/// for it), a one-way removal of it, and a sell fee the owner may set to at most 5 %.
contract HbHonestWhaleCap is HbToken {
    uint256 public immutable maxSell;
    bool public limited = true;
    uint256 public sellFeeBps;

    constructor(uint256 supply, uint256 cap) HbToken("Honest Whale Cap", supply) {
        maxSell = cap;
    }

    function removeLimits() external onlyOwner {
        limited = false;
    }

    function setSellFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "fee above 5 %");
        sellFeeBps = bps;
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair) return 0;
        if (limited) require(value <= maxSell, "anti-whale");
        return (value * sellFeeBps) / 10_000;
    }
}

/// The size tests' token: its owner may cap sells down to a floor of 0.1 % of the supply and no
/// lower (off at launch), a floor dust sells stay under and a market holder's sell does not; may
/// cap buys, as a launch cap does; and may stop one account's sells, where built to.
contract SellFloorToken is HbToken {
    uint256 public maxSell = type(uint256).max;
    uint256 public maxBuy = type(uint256).max;
    mapping(address => bool) public noSell;
    bool public immutable canStop;

    constructor(uint256 supply, bool stoppable) HbToken("Sell Floor", supply) {
        canStop = stoppable;
    }

    function setMaxSell(uint256 amount) external onlyOwner {
        require(amount >= totalSupply / 1000, "below the floor");
        maxSell = amount;
    }

    function setMaxBuy(uint256 amount) external onlyOwner {
        require(amount >= totalSupply / 1000, "below the floor");
        maxBuy = amount;
    }

    function stopSells(address account) external onlyOwner {
        require(canStop, "not built to stop sells");
        noSell[account] = true;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (to == pair) {
            require(!noSell[from], "sells stopped");
            require(value <= maxSell, "above the max sell");
        }
        if (from == pair) require(value <= maxBuy, "above the max buy");
        return 0;
    }
}
