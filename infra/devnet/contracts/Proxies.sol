// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

// Compiled here so the scenario can deploy them; OpenZeppelin's code, unchanged.
contract DevnetProxy is TransparentUpgradeableProxy {
    constructor(address logic, address initialOwner, bytes memory data)
        payable
        TransparentUpgradeableProxy(logic, initialOwner, data)
    {}
}

contract DevnetTimelock is TimelockController {
    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors)
        TimelockController(minDelay, proposers, executors, address(0))
    {}
}
