// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";

/// For readTimelock's tests: OpenZeppelin's TimelockController unchanged, and look-alikes that keep
/// its interface (or add one function) but let a backdoor account skip the wait.

/// A token whose owner (a timelock, in these tests) may mint any amount; also a proxy's logic.
contract TlMintToken is ERC20, Ownable {
    constructor(address owner_) ERC20("Timelocked", "TLK") Ownable(owner_) {
        _mint(msg.sender, 1_000_000 ether);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

contract TlGenuine is TimelockController {
    constructor(uint256 minDelay, address[] memory proposers, address[] memory executors)
        TimelockController(minDelay, proposers, executors, address(0))
    {}
}

/// A two-day TimelockController with a backdoor account, whose `execute` runs any call at once for
/// it when `_opens()` says so (always, unless a look-alike below keys it to something more).
abstract contract TlBackdoored is TimelockController {
    address internal immutable backdoor;

    constructor(address backdoor_, address[] memory proposers, address[] memory executors)
        TimelockController(2 days, proposers, executors, address(0))
    {
        backdoor = backdoor_;
    }

    function _opens() internal view virtual returns (bool) {
        return true;
    }

    function execute(address target, uint256 value, bytes calldata payload, bytes32 predecessor, bytes32 salt)
        public
        payable
        override
    {
        if (msg.sender == backdoor && _opens()) {
            _execute(target, value, payload);
            return;
        }
        super.execute(target, value, payload, predecessor, salt);
    }
}

/// getMinDelay() says two days, but the backdoor may set the delay it enforces to anything at once.
contract TlAdminDelay is TlBackdoored {
    uint256 private delay = 2 days;

    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal pure override returns (bool) {
        return false;
    }

    function getMinDelay() public view override returns (uint256) {
        return delay;
    }

    function updateDelay(uint256 newDelay) public override {
        require(msg.sender == backdoor || msg.sender == address(this), "unauthorized");
        delay = newDelay;
    }
}

/// The backdoor executes any call at once, scheduled or not.
contract TlAdminExecute is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}
}

/// The backdoor executes a batch at once once it is scheduled, without waiting for it to be ready.
contract TlScheduledIsReady is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal pure override returns (bool) {
        return false;
    }

    function executeBatch(
        address[] calldata targets,
        uint256[] calldata values,
        bytes[] calldata payloads,
        bytes32 predecessor,
        bytes32 salt
    ) public payable override {
        bytes32 id = hashOperationBatch(targets, values, payloads, predecessor, salt);
        if (msg.sender == backdoor && isOperationPending(id)) {
            for (uint256 i = 0; i < targets.length; ++i) {
                _execute(targets[i], values[i], payloads[i]);
            }
            return;
        }
        super.executeBatch(targets, values, payloads, predecessor, salt);
    }
}

/// Everything a TimelockController is, plus one function for the backdoor.
contract TlExtraFunction is TlBackdoored {
    constructor(address[] memory proposers, address[] memory executors)
        TlBackdoored(msg.sender, proposers, executors)
    {}

    function _opens() internal pure override returns (bool) {
        return false;
    }

    function rescue(address target, bytes calldata payload) external {
        require(msg.sender == backdoor, "unauthorized");
        _execute(target, 0, payload);
    }
}

/// A token behind OpenZeppelin's transparent proxy, whose ProxyAdmin (made by the proxy) is owned by
/// `initialOwner`: a timelock, in these tests.
contract TlProxy is TransparentUpgradeableProxy {
    constructor(address logic, address initialOwner, bytes memory data)
        payable
        TransparentUpgradeableProxy(logic, initialOwner, data)
    {}
}
