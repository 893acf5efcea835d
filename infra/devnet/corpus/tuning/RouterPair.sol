// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The pair a tuning token trades in, found through the router it was given: what tax tokens
// compare a transfer's sender and receiver against to tell a buy or a sell.

interface ITnPairFactory {
    function getPair(address a, address b) external view returns (address);
}

interface ITnRouter {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

abstract contract TnRouterPair {
    address internal immutable dexRouter;

    constructor(address router_) {
        dexRouter = router_;
    }

    function _pair() internal view returns (address) {
        return ITnPairFactory(ITnRouter(dexRouter).factory()).getPair(address(this), ITnRouter(dexRouter).WETH());
    }
}
