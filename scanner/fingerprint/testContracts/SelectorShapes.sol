// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Functions whose selectors the compiler pushes or compares in every dispatcher shape it has: a
/// selector with a zero first byte (PUSH3), 0x00000000 (PUSH0, or ISZERO once optimized), and the
/// largest selector (via-IR's last case, compared by SUB).
contract SelectorShapes {
    mapping(address => uint256) public balanceOf;
    uint256 public totalSupply;

    /// 0x0055d20f
    function claimRebate144(address to, uint256 amount) external {
        balanceOf[to] += amount;
        totalSupply += amount;
    }

    /// 0x00000000
    function left_branch_block(uint32 value) external pure returns (uint256) {
        return value + 1;
    }

    /// the largest selector here
    function sweep21() external {
        totalSupply = 0;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        return true;
    }
}
