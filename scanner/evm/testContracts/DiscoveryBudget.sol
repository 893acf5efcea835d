// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Tokens for power discovery's time budget (scanner/evm/discoveryBudget.test.ts): what a scan says
/// when discovery stops before it has tried every call.
abstract contract DbToken {
    string public name;
    string public symbol = "DB";
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

    /// Once, after listing: the pool is then fixed.
    function setPair(address newPair) external {
        require(msg.sender == owner && pair == address(0), "pair set");
        pair = newPair;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// A plain token: nothing to mint, take or stop.
contract DbPlainToken is DbToken {
    constructor(uint256 supply) DbToken("Db Plain", supply) {}
}

/// A mint under a name no list knows: the owner's "reward claim" credits any amount to the owner.
contract DbRewardToken is DbToken {
    constructor(uint256 supply) DbToken("Db Reward", supply) {}

    function claimRewards(uint256 amount) external {
        require(msg.sender == owner, "owner");
        totalSupply += amount;
        balanceOf[msg.sender] += amount;
        emit Transfer(address(0), msg.sender, amount);
    }
}
