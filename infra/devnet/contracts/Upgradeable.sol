// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A plain ERC-20 that takes its state from initialize(), to sit behind a proxy.
contract SimpleUpgradeableToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    bool private _initialized;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function initialize(string memory name_, string memory symbol_, uint256 supply, address holder) public virtual {
        require(!_initialized, "initialized");
        _initialized = true;
        name = name_;
        symbol = symbol_;
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

/// A USDC-like stablecoin implementation: an owner, and a pauser, a blacklister and a minter.
contract StableTokenImpl is SimpleUpgradeableToken {
    address public owner;
    address public pauser;
    address public blacklister;
    address public minter;
    bool public paused;
    mapping(address => bool) public isBlacklisted;

    function initializeRoles(address owner_, address pauser_, address blacklister_, address minter_) external {
        require(owner == address(0), "roles set");
        owner = owner_;
        pauser = pauser_;
        blacklister = blacklister_;
        minter = minter_;
    }

    function pause() external {
        require(msg.sender == pauser, "not pauser");
        paused = true;
    }

    function unpause() external {
        require(msg.sender == pauser, "not pauser");
        paused = false;
    }

    function blacklist(address account) external {
        require(msg.sender == blacklister, "not blacklister");
        isBlacklisted[account] = true;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "not minter");
        _move(address(0), to, amount);
    }

    function _move(address from, address to, uint256 value) internal override {
        require(!paused, "paused");
        require(!isBlacklisted[from] && !isBlacklisted[to], "blacklisted");
        super._move(from, to, value);
    }
}

/// USDT-style: transfer, transferFrom and approve return nothing.
contract NoReturnToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// Holds LP tokens until a date: the devnet's LP locker, installed at a fixed address.
contract DevnetLpLocker {
    struct Lock {
        address owner;
        uint256 amount;
        uint256 unlockTime;
    }

    mapping(address => Lock[]) public locks;

    function lock(address lpToken, uint256 amount, uint256 unlockTime) external {
        (bool ok, bytes memory ret) =
            lpToken.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transfer failed");
        locks[lpToken].push(Lock(msg.sender, amount, unlockTime));
    }
}

/// Sends one amount of a token to many addresses in one transaction (the scenario's airdrops).
contract Disperse {
    function disperse(address token, address[] calldata recipients, uint256 amount) external {
        for (uint256 i = 0; i < recipients.length; i++) {
            (bool ok, bytes memory ret) = token.call(
                abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, recipients[i], amount)
            );
            require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "airdrop failed");
        }
    }
}
