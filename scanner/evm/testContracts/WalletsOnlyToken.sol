// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A token for the round trip's and the holders' sells' own tests: an address with code other
/// than the pair cannot send (a guard against bots). With `strict` such a send reverts; without,
/// it moves nothing and returns true. A person's wallet, which has no code, trades as usual.
contract WalletsOnlyToken {
    string public name = "Wallets Only";
    string public symbol = "WALL";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public pair;
    bool public immutable strict;
    address private immutable deployer;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply, bool strict_) {
        strict = strict_;
        deployer = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function setPair(address pair_) external {
        require(msg.sender == deployer && pair == address(0), "once, by the deployer");
        pair = pair_;
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

    function _move(address from, address to, uint256 value) private {
        if (from.code.length > 0 && from != pair) {
            require(!strict, "wallets only");
            return;
        }
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
