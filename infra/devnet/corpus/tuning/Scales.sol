// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tuning tokens for fee setters whose unit is not a percent. A setter capped at its own scale
// (basis points up to 10,000, per mille up to 1,000) refuses a percent-sized probe above the cap
// and reads a small one as a fraction of a percent, so a 99 % sell tax hides behind a probe that
// only ever asks for 99. And a tax set for one account at a time (a targeted honeypot), in
// percent, capped at 100. Written from the ways real tax tokens count their fees; other names and
// hiding places than the held-out part, which stays unread.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

/// `setSellRate` sets the sell tax in basis points, up to the whole sell, for an operator kept
/// in a mapping (the deployer).
contract TnBpsSellRateToken is ERC20, Ownable, TnRouterPair {
    mapping(address => bool) private operators;
    uint16 private sellRateBps = 200;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        operators[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function setSellRate(uint16 bps) external {
        require(operators[msg.sender], "operator");
        require(bps <= 10_000, "bps");
        sellRateBps = bps;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && !operators[from] && to == _pair()) {
            uint256 cut = (value * sellRateBps) / 10_000;
            super._update(from, address(this), cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

/// `adjustFees` sets the buy and sell fees in per mille, each up to the whole trade.
contract TnPermilleFeeToken is ERC20, Ownable, TnRouterPair {
    uint256 private buyPermille = 10;
    uint256 private sellPermille = 10;
    address private immutable wallet;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        wallet = msg.sender;
        _mint(msg.sender, supply);
    }

    function adjustFees(uint256 buy, uint256 sell) external onlyOwner {
        require(buy <= 1_000 && sell <= 1_000, "permille");
        buyPermille = buy;
        sellPermille = sell;
    }

    function _update(address from, address to, uint256 value) internal override {
        address pair = _pair();
        if (from != address(0) && from != wallet && to != wallet) {
            uint256 rate = to == pair ? sellPermille : from == pair ? buyPermille : 0;
            uint256 cut = (value * rate) / 1_000;
            if (cut > 0) super._update(from, wallet, cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

/// `setAccountRate` sets one account's sell tax in percent, up to the whole sell: a honeypot aimed
/// at chosen holders, for a manager kept in a later slot.
contract TnAccountRateToken is ERC20, Ownable, TnRouterPair {
    uint256 public launchedAt;
    address private manager;
    mapping(address => uint256) private accountRate;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        launchedAt = block.timestamp;
        manager = msg.sender;
        _mint(msg.sender, supply);
    }

    function setAccountRate(address account, uint256 percent) external {
        require(msg.sender == manager, "manager");
        require(percent <= 100, "percent");
        accountRate[account] = percent;
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 rate = accountRate[from];
        if (rate > 0 && to == _pair()) {
            uint256 cut = (value * rate) / 100;
            super._update(from, manager, cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

/// A 1.5 % sell fee counted in basis points; the owner may change it, never above 3 %.
contract TnBpsCappedFeeToken is ERC20, Ownable, TnRouterPair {
    uint256 private sellBps = 150;
    address private immutable treasury;

    constructor(string memory n, string memory s, uint256 supply, address router_, address treasury_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function setSellBps(uint256 bps) external onlyOwner {
        require(bps <= 300, "cap");
        sellBps = bps;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && to == _pair()) {
            uint256 fee = (value * sellBps) / 10_000;
            super._update(from, treasury, fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}

/// Per-mille fees on both sides, 2 % each; the owner may change them, never above 5 %, and may
/// exempt accounts (which lowers a tax, never raises one).
contract TnPermilleCappedFeeToken is ERC20, Ownable, TnRouterPair {
    uint256 private feePermille = 20;
    mapping(address => bool) private exempt;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        exempt[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function setFeePermille(uint256 permille) external onlyOwner {
        require(permille <= 50, "cap");
        feePermille = permille;
    }

    function setExempt(address account, bool on) external onlyOwner {
        exempt[account] = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        address pair = _pair();
        if (from != address(0) && !exempt[from] && !exempt[to] && (to == pair || from == pair)) {
            uint256 fee = (value * feePermille) / 1_000;
            super._update(from, owner(), fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}
