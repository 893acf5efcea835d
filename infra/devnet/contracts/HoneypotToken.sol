// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IUniswapV2Router02} from "./interfaces/IUniswapV2.sol";
import {PairListed} from "./PairListed.sol";

/// Anyone can buy from the pair and move tokens between wallets, but only the owner can send
/// tokens to the pair: every other holder is trapped.
contract HoneypotToken is ERC20, Ownable, PairListed {
    constructor(string memory name_, string memory symbol_, uint256 supply, IUniswapV2Router02 router)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
        PairListed(router)
    {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && from != owner()) revert("HONEY: sells are paused");
        super._update(from, to, value);
    }
}
