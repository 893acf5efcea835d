// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

/// OpenZeppelin's TimelockController as projects deploy it.
contract TestTimelock is TimelockController {
    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors)
        TimelockController(minDelay, proposers, executors, address(0))
    {}
}

/// A lookalike: the same controller, with a call of its own for its deployer that skips the wait.
contract TestBackdooredTimelock is TimelockController {
    address private immutable keeper;

    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors)
        TimelockController(minDelay, proposers, executors, address(0))
    {
        keeper = msg.sender;
    }

    function rescue(address target, bytes calldata data) external {
        require(msg.sender == keeper, "keeper");
        (bool ok,) = target.call(data);
        require(ok, "call failed");
    }
}
