// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Functions of every kind of argument list, for the trace that tells which read none.
contract ArgumentShapes {
    uint256 public level;
    bool public open;
    address public keeper;

    function openTrading() external {
        open = true;
    }

    function pendingLevel() external view returns (uint256) {
        return level + 1;
    }

    function setLevel(uint256 value) external {
        level = value;
    }

    function setKeeper(address account) external {
        keeper = account;
    }

    function six(uint256 a, uint256 b, uint256 c, uint256 d, uint256 e, uint256 f) external {
        level = a + b + c + d + e + f;
    }

    function batch(address[] calldata accounts) external {
        keeper = accounts[0];
    }

    struct Order {
        address account;
        uint256 amount;
        uint256 deadline;
    }

    /// A calldata struct's fields are read where used: past the gate, which the tracer's caller
    /// does not pass, nothing is read.
    function clear(Order calldata order) external {
        require(msg.sender == keeper, "keeper");
        level = order.amount;
    }

    /// Reads none, and refuses the tracer's caller: another caller may take another path.
    function keeperOnly() external {
        require(msg.sender == keeper, "keeper");
        open = false;
    }

    /// Declares none and reads one anyway, in assembly.
    function sneaky() external {
        uint256 word;
        assembly {
            word := calldataload(4)
        }
        level = word;
    }
}
