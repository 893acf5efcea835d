// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Emits the events Vigil's indexer decodes, many per transaction, for the indexer benchmark.
contract LogEmitter {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);

    function emitMany(uint256 n) external {
        for (uint256 i = 0; i < n; i++) {
            emit Transfer(address(uint160(i + 1)), msg.sender, i * 1e18);
            emit Swap(msg.sender, i, 0, 0, i * 2, msg.sender);
            emit Sync(uint112(i), uint112(i * 3));
        }
    }
}
