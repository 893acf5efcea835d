// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IUniswapV2Router02} from "./interfaces/IUniswapV2.sol";
import {PairListed} from "./PairListed.sol";

/// Max transaction and max wallet at 3 % of the supply, both changeable by the owner.
contract LimitsToken is ERC20, Ownable, PairListed {
    uint256 public maxTxAmount;
    uint256 public maxWallet;

    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        maxTxAmount = (supply * 3) / 100;
        maxWallet = (supply * 3) / 100;
        _mint(msg.sender, supply);
    }

    function setMaxTxAmount(uint256 amount) external onlyOwner {
        maxTxAmount = amount;
    }

    function setMaxWallet(uint256 amount) external onlyOwner {
        maxWallet = amount;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != owner() && to != owner() && from != address(0)) {
            require(value <= maxTxAmount, "max transaction");
            if (to != pair) require(balanceOf(to) + value <= maxWallet, "max wallet");
        }
        super._update(from, to, value);
    }
}

/// A wallet can buy once a minute.
contract CooldownToken is ERC20, Ownable, PairListed {
    mapping(address => uint256) public lastBuy;

    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == pair) {
            require(lastBuy[to] + 60 <= block.timestamp, "cooldown: one buy a minute");
            lastBuy[to] = block.timestamp;
        }
        super._update(from, to, value);
    }
}

/// Holders cannot sell their whole balance at once.
contract SellLimitToken is ERC20, Ownable, PairListed {
    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && from != owner() && from != address(0)) require(value < balanceOf(from), "keep some tokens");
        super._update(from, to, value);
    }
}

/// Buys revert until the owner opens trading.
contract TradingClosedToken is ERC20, Ownable, PairListed {
    bool public tradingOpen;

    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        _mint(msg.sender, supply);
    }

    function openTrading() external onlyOwner {
        tradingOpen = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == pair && to != owner()) require(tradingOpen, "trading not open");
        super._update(from, to, value);
    }
}

/// Fees whose rates the owner can change at will (zero at launch).
contract ModifiableFeeToken is ERC20, Ownable, PairListed {
    uint256 public buyFeeBps;
    uint256 public sellFeeBps;

    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        _mint(msg.sender, supply);
    }

    function setFees(uint256 buyBps, uint256 sellBps) external onlyOwner {
        buyFeeBps = buyBps;
        sellFeeBps = sellBps;
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 fee = from == pair ? buyFeeBps : to == pair ? sellFeeBps : 0;
        if (fee != 0 && from != owner() && to != owner()) {
            uint256 cut = (value * fee) / 10_000;
            super._update(from, owner(), cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

/// Computes its (zero) fee by delegating to another contract, whose code it does not control: the
/// fee module can destroy itself (where SELFDESTRUCT still removes code, its address can then be
/// given other code).
contract FeeMath {
    function feeOf(uint256) external pure returns (uint256) {
        return 0;
    }

    function retire() external {
        selfdestruct(payable(msg.sender));
    }
}

contract DelegatingToken is ERC20, Ownable {
    address public immutable feeMath;

    constructor(string memory name_, string memory symbol_, uint256 supply, address feeMath_)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        feeMath = feeMath_;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        (bool ok, bytes memory fee) = feeMath.delegatecall(abi.encodeWithSignature("feeOf(uint256)", value));
        require(ok && abi.decode(fee, (uint256)) == 0, "fee");
        super._update(from, to, value);
    }
}
