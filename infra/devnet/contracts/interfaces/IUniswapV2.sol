// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Only the parts of Uniswap V2 that devnet tokens call; the DEX itself comes from its npm build.

interface IUniswapV2Factory {
    function createPair(address tokenA, address tokenB) external returns (address pair);
}

interface IUniswapV2Router02 {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}
