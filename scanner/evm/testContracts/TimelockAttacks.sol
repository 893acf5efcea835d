// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {TlBackdoored} from "./Timelocks.sol";

/// More timelocks for readTimelock: look-alikes whose way round the wait is keyed to something a
/// simulation does not vary, a genuine one with a weakness of an early release, and a genuine one
/// whose state was written at deployment.

/// The backdoor is an account given at deployment, one the token never names.
contract TaStranger is TlBackdoored {
    constructor(address backdoor_, address[] memory proposers, address[] memory executors)
        TlBackdoored(backdoor_, proposers, executors)
    {}
}

/// No function more: a fallback makes any call for the deployer, at once.
contract TaFallback is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal pure override returns (bool) {
        return false;
    }

    fallback() external payable {
        require(msg.sender == backdoor, "unauthorized");
        (address target, bytes memory data) = abi.decode(msg.data[4:], (address, bytes));
        (bool ok,) = target.call(data);
        require(ok, "call failed");
    }
}

/// The deployer executes at once when it sends one wei with the call.
contract TaValue is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal view override returns (bool) {
        return msg.value == 1;
    }
}

/// The deployer executes at once, from an hour after deployment on.
contract TaLater is TlBackdoored {
    uint256 private immutable opensAt;

    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {
        opensAt = block.timestamp + 1 hours;
    }

    function _opens() internal view override returns (bool) {
        return block.timestamp >= opensAt;
    }
}

/// The deployer executes at once when the call carries more gas than a simulated call is given.
contract TaGas is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal view override returns (bool) {
        return gasleft() > 2_000_000;
    }
}

/// TimelockController as released up to 4.3.0: an operation's readiness is checked after its calls
/// are made, so an executor's batch can lower the delay, make a contract of its own a proposer, and
/// have that contract schedule the batch with no delay before the check (fixed in 4.3.1).
contract TaReadyAfter is TimelockController {
    constructor(address[] memory proposers, address[] memory executors)
        TimelockController(2 days, proposers, executors, address(0))
    {}

    function executeBatch(
        address[] calldata targets,
        uint256[] calldata values,
        bytes[] calldata payloads,
        bytes32 predecessor,
        bytes32 salt
    ) public payable override onlyRoleOrOpenRole(EXECUTOR_ROLE) {
        bytes32 id = hashOperationBatch(targets, values, payloads, predecessor, salt);
        require(predecessor == bytes32(0) || isOperationDone(predecessor), "missing dependency");
        for (uint256 i = 0; i < targets.length; ++i) {
            _execute(targets[i], values[i], payloads[i]);
        }
        require(isOperationReady(id), "operation is not ready");
    }
}

/// OpenZeppelin's TimelockController unchanged, whose deployment also marked one operation as
/// scheduled long ago: ready to execute, with no CallScheduled event.
contract TaSeeded is TimelockController {
    constructor(bytes32 ready, address[] memory proposers, address[] memory executors)
        TimelockController(2 days, proposers, executors, address(0))
    {
        // _timestamps is the contract's second slot (after AccessControl's _roles).
        bytes32 slot = keccak256(abi.encode(ready, uint256(1)));
        assembly {
            sstore(slot, 2)
        }
    }
}
