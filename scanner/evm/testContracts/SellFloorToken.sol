// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A token for the size of the probe's holder: its owner may cap sells (sends to the pair) down to
/// a floor of 0.1 % of the supply and no lower (off at launch), a floor dust sells stay under and
/// a market holder's sell does not; may cap buys (sends from the pair), as a launch cap does; and
/// may stop one account's sells, where built to.
contract SellFloorToken {
    string public name = "Sell Floor";
    string public symbol = "FLOOR";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;
    uint256 public maxSell = type(uint256).max;
    uint256 public maxBuy = type(uint256).max;
    mapping(address => bool) public noSell;
    bool public immutable canStop;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply, bool stoppable) {
        canStop = stoppable;
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    function setPair(address newPair) external onlyOwner {
        pair = newPair;
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
        if (to == pair && from != owner) {
            require(!noSell[from], "sells stopped");
            require(value <= maxSell, "above the max sell");
        }
        if (from == pair && to != owner) require(value <= maxBuy, "above the max buy");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
