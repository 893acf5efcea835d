// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IUniswapV2Router02} from "./interfaces/IUniswapV2.sol";
import {PairListed} from "./PairListed.sol";

/// Takes a cut of buys, sells and wallet-to-wallet transfers and sends it to the owner.
/// The rates are immutable, so a scanner should report the taxes but not "owner can change
/// taxes".
contract FeeToken is ERC20, Ownable, PairListed {
    uint256 public immutable buyTaxBps;
    uint256 public immutable sellTaxBps;
    uint256 public immutable transferTaxBps;

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 supply,
        IUniswapV2Router02 router,
        uint256 buyTaxBps_,
        uint256 sellTaxBps_,
        uint256 transferTaxBps_
    ) ERC20(name_, symbol_) Ownable(msg.sender) PairListed(router) {
        require(buyTaxBps_ <= 10_000 && sellTaxBps_ <= 10_000 && transferTaxBps_ <= 10_000, "FeeToken: tax above 100%");
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        transferTaxBps = transferTaxBps_;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 taxBps = _taxBps(from, to);
        if (taxBps != 0) {
            uint256 tax = (value * taxBps) / 10_000;
            super._update(from, owner(), tax);
            value -= tax;
        }
        super._update(from, to, value);
    }

    function _taxBps(address from, address to) private view returns (uint256) {
        address owner_ = owner();
        // The owner lists and seeds liquidity tax-free; mints and burns are never taxed.
        if (from == owner_ || to == owner_ || from == address(0) || to == address(0)) return 0;
        if (from == pair) return buyTaxBps;
        if (to == pair) return sellTaxBps;
        return transferTaxBps;
    }
}
