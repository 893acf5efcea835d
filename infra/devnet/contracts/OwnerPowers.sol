// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// The owner can block any address from sending or receiving.
contract BlacklistToken is ERC20, Ownable {
    mapping(address => bool) public isBlacklisted;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function blacklist(address account) external onlyOwner {
        isBlacklisted[account] = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!isBlacklisted[from] && !isBlacklisted[to], "BLACKLISTED");
        super._update(from, to, value);
    }
}

/// The owner can restrict buys to addresses it whitelists.
contract WhitelistToken is ERC20, Ownable {
    mapping(address => bool) public isWhitelisted;
    bool public whitelistOnly;
    address public pair;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setWhitelist(address account, bool allowed) external onlyOwner {
        isWhitelisted[account] = allowed;
    }

    function setWhitelistEnabled(bool enabled) external onlyOwner {
        whitelistOnly = enabled;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (whitelistOnly && from != owner()) require(isWhitelisted[to], "not whitelisted");
        super._update(from, to, value);
    }
}

/// The owner can stop every transfer.
contract PausableToken is ERC20, Ownable {
    bool public paused;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function pause() external onlyOwner {
        paused = true;
    }

    function unpause() external onlyOwner {
        paused = false;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!paused || from == owner(), "paused");
        super._update(from, to, value);
    }
}

/// The owner can set any holder's balance.
contract BalanceSetterToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setBalance(address account, uint256 amount) external onlyOwner {
        uint256 current = balanceOf(account);
        if (current > amount) _update(account, address(0), current - amount);
        else if (amount > current) _update(address(0), account, amount - current);
    }
}

/// "Renounces" by clearing the owner() variable, while mint() checks another one.
contract FakeRenounceToken is ERC20 {
    address private _owner;
    address private _dev;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _owner = msg.sender;
        _dev = msg.sender;
        _mint(msg.sender, supply);
    }

    function owner() external view returns (address) {
        return _owner;
    }

    function renounceOwnership() external {
        require(msg.sender == _owner, "not owner");
        _owner = address(0);
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == _dev, "not dev");
        _mint(to, amount);
    }
}

/// The owner "locks" (renounces) and the former owner can unlock: SafeMoon's pattern.
contract ReclaimableToken is ERC20, Ownable {
    address private _previousOwner;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function lock() external onlyOwner {
        _previousOwner = owner();
        _transferOwnership(address(0));
    }

    function unlock() external {
        require(msg.sender == _previousOwner, "not the previous owner");
        _transferOwnership(_previousOwner);
    }
}

/// The owner can destroy the contract.
contract SelfDestructToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function destroy() external onlyOwner {
        selfdestruct(payable(msg.sender));
    }
}
