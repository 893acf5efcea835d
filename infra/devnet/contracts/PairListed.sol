// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IUniswapV2Factory, IUniswapV2Router02} from "./interfaces/IUniswapV2.sol";

/// Creates the token's WETH pair in the constructor, as launch contracts commonly do, so that
/// transfer rules can tell buys (from the pair) and sells (to the pair) apart from block one.
abstract contract PairListed {
    address public immutable pair;

    constructor(IUniswapV2Router02 router) {
        pair = IUniswapV2Factory(router.factory()).createPair(address(this), router.WETH());
    }
}
