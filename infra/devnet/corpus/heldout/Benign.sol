// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20 as OzERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {ERC20Capped} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Capped.sol";
import {ERC20FlashMint} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20FlashMint.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Ownable as OzOwnable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";
import {ERC20, Ownable, Listed, IDexPair} from "./Base.sol";

/// A 3 % trade fee to the treasury; the owner may change it, never above 5 %.
contract TreasuryFeeToken is ERC20, Ownable, Listed {
    uint256 public feeBps = 300;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _mint(_msgSender(), supply);
    }

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "fee above 5%");
        feeBps = bps;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        bool trade = from == uniswapV2Pair || to == uniswapV2Pair;
        if (trade && owner() != address(0) && from != owner() && to != owner()) {
            uint256 fee = (amount * feeBps) / 10_000;
            super._transfer(from, owner(), fee);
            amount -= fee;
        }
        super._transfer(from, to, amount);
    }
}

/// An elastic-supply token: the monetary policy rebases every balance by the same factor and
/// syncs the pool, as rebasing tokens' orchestrators do.
contract ElasticToken is Ownable, Listed {
    uint256 private constant INITIAL_SUPPLY = 1e27;
    uint256 private constant TOTAL_GONS = type(uint256).max - (type(uint256).max % INITIAL_SUPPLY);
    uint256 private constant MAX_SUPPLY = type(uint128).max;
    uint256 private _totalSupply;
    uint256 private _gonsPerFragment;
    mapping(address => uint256) private _gonBalances;
    mapping(address => mapping(address => uint256)) private _allowed;
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event LogRebase(uint256 indexed epoch, uint256 totalSupply);

    constructor(string memory name_, string memory symbol_, address router) Listed(router) {
        name = name_;
        symbol = symbol_;
        _totalSupply = INITIAL_SUPPLY;
        _gonsPerFragment = TOTAL_GONS / _totalSupply;
        _gonBalances[msg.sender] = TOTAL_GONS;
        emit Transfer(address(0), msg.sender, _totalSupply);
    }

    function rebase(uint256 epoch, int256 supplyDelta) external onlyOwner returns (uint256) {
        if (supplyDelta < 0) _totalSupply -= uint256(-supplyDelta);
        else _totalSupply += uint256(supplyDelta);
        if (_totalSupply > MAX_SUPPLY) _totalSupply = MAX_SUPPLY;
        _gonsPerFragment = TOTAL_GONS / _totalSupply;
        IDexPair(uniswapV2Pair).sync();
        emit LogRebase(epoch, _totalSupply);
        return _totalSupply;
    }

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address who) public view returns (uint256) {
        return _gonBalances[who] / _gonsPerFragment;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function allowance(address owner_, address spender) external view returns (uint256) {
        return _allowed[owner_][spender];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = _allowed[from][msg.sender];
        if (allowed != type(uint256).max) _allowed[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        uint256 gonValue = value * _gonsPerFragment;
        _gonBalances[from] -= gonValue;
        _gonBalances[to] += gonValue;
        emit Transfer(from, to, value);
    }
}

/// A governance token: permit signatures and vote delegation; no owner at all.
contract CommonsToken is OzERC20, ERC20Permit, ERC20Votes {
    constructor(string memory name_, string memory symbol_, uint256 supply) OzERC20(name_, symbol_) ERC20Permit(name_) {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override(OzERC20, ERC20Votes) {
        super._update(from, to, value);
    }

    function nonces(address owner_) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner_);
    }
}

/// The owner may mint, up to a cap the launch already reached.
contract SummitToken is OzERC20, ERC20Capped, OzOwnable {
    constructor(string memory name_, string memory symbol_, uint256 supply)
        OzERC20(name_, symbol_)
        ERC20Capped(supply)
        OzOwnable(msg.sender)
    {
        _mint(msg.sender, supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override(OzERC20, ERC20Capped) {
        super._update(from, to, value);
    }
}

/// A team allocation escrowed in the token itself, released to the team after a 180-day cliff.
contract CliffToken is OzERC20, OzOwnable {
    uint256 public immutable cliff;
    address public immutable team;

    constructor(string memory name_, string memory symbol_, uint256 supply, address team_)
        OzERC20(name_, symbol_)
        OzOwnable(msg.sender)
    {
        cliff = block.timestamp + 180 days;
        team = team_;
        _mint(msg.sender, supply);
        _mint(address(this), supply / 10);
    }

    function release() external {
        require(block.timestamp >= cliff, "cliff");
        _transfer(address(this), team, balanceOf(address(this)));
    }
}

/// USDT-style: transfer, transferFrom and approve return nothing.
contract MuteToken {
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

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
    }

    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function _move(address from, address to, uint256 value) private {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// Holders burn their own tokens, or others' with an allowance.
contract EmberToken is OzERC20, ERC20Burnable, OzOwnable {
    constructor(string memory name_, string memory symbol_, uint256 supply)
        OzERC20(name_, symbol_)
        OzOwnable(msg.sender)
    {
        _mint(msg.sender, supply);
    }
}

/// ERC-3156 flash mints: supply rises inside a loan and falls back before it ends.
contract LoanToken is OzERC20, ERC20FlashMint {
    constructor(string memory name_, string memory symbol_, uint256 supply) OzERC20(name_, symbol_) {
        _mint(msg.sender, supply);
    }
}

/// A 3 % max wallet at launch that the owner can only raise or lift.
contract RoomyToken is ERC20, Ownable, Listed {
    uint256 public maxWallet;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router)
        ERC20(name_, symbol_)
        Listed(router)
    {
        maxWallet = (supply * 3) / 100;
        _mint(_msgSender(), supply);
    }

    function setMaxWallet(uint256 amount) external onlyOwner {
        require(amount >= maxWallet, "limits only go up");
        maxWallet = amount;
    }

    function removeLimits() external onlyOwner {
        maxWallet = type(uint256).max;
    }

    function _beforeTokenTransfer(address from, address to, uint256 amount) internal view override {
        if (to != uniswapV2Pair && to != owner() && from != owner())
            require(_balances[to] + amount <= maxWallet, "max wallet");
    }
}

/// Trading opens once, at launch, and cannot be closed again.
contract OpeningToken is ERC20, Ownable {
    bool public tradingOpen;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function openTrading() external onlyOwner {
        tradingOpen = true;
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal view override {
        if (!tradingOpen) require(from == owner() || to == owner(), "trading not open");
    }
}

/// A plain fixed-supply token.
contract PlainToken is OzERC20, OzOwnable {
    constructor(string memory name_, string memory symbol_, uint256 supply)
        OzERC20(name_, symbol_)
        OzOwnable(msg.sender)
    {
        _mint(msg.sender, supply);
    }
}

/// A blacklist whose owner renounced: nobody can add to it any more.
contract RetiredListToken is OzERC20, OzOwnable {
    mapping(address => bool) public blacklisted;

    constructor(string memory name_, string memory symbol_, uint256 supply)
        OzERC20(name_, symbol_)
        OzOwnable(msg.sender)
    {
        _mint(msg.sender, supply);
    }

    function setBlacklist(address account, bool value) external onlyOwner {
        blacklisted[account] = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!blacklisted[from] && !blacklisted[to], "blacklisted");
        super._update(from, to, value);
    }
}
