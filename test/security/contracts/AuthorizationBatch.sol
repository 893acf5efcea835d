// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IEIP3009 {
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

/// Several EIP-3009 authorizations executed in one transaction: a shape that must not count as
/// the settlement of any one of them (its transfers could be matched to authorizations they were
/// never made for).
contract AuthorizationBatch {
    struct Authorization {
        address from;
        address to;
        uint256 value;
        uint256 validAfter;
        uint256 validBefore;
        bytes32 nonce;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    function run(IEIP3009 token, Authorization[] calldata batch) external {
        for (uint256 i = 0; i < batch.length; i++) {
            Authorization calldata a = batch[i];
            token.transferWithAuthorization(a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, a.v, a.r, a.s);
        }
    }
}
