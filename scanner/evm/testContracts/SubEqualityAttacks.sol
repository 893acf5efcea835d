// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FpToken} from "./ForgedPermit.sol";

/// Adversarial review of vigil-risk/47's comparison tracer, which reads a SUB whose result a JUMPI
/// takes within two steps as an equality (scanner/evm/subEquality.attacks.test.ts). Every token is
/// FpToken (a sound permit, mint-or-move _update) with one hidden power; the hidden accounts are
/// keccak256 of a label, as labelledWallet('se', label) derives them in the test.

/// Scam: any permit naming the insider's relayer as spender needs no signature (FaRelayerSpender's
/// power), but two "paused partner" spenders are compared after it: the round names two spenders
/// at most, the last compared first.
contract SeDecoyRelayer is FpToken {
    address internal constant RELAYER = address(uint160(uint256(keccak256("se.relayer"))));
    address internal constant PARTNER_A = address(uint160(uint256(keccak256("se.partnerA"))));
    address internal constant PARTNER_B = address(uint160(uint256(keccak256("se.partnerB"))));

    constructor(uint256 supply) FpToken("Decoy Relayer", supply) {}

    function _granted(
        address holder,
        address spender,
        uint256 value,
        uint256 deadline,
        bytes32 digest,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) internal view override returns (uint256) {
        if (spender == RELAYER) return value;
        if (spender == PARTNER_A) revert("partner paused");
        if (spender == PARTNER_B) revert("partner paused");
        return super._granted(holder, spender, value, deadline, digest, v, r, s);
    }
}

/// Scam: the same relayer, checked as `(spender ^ relayer) < 1`: neither an EQ nor a SUB of the
/// spender, the comparison is of a mixed word with 1.
contract SeXorRelayer is FpToken {
    address internal constant RELAYER = address(uint160(uint256(keccak256("se.relayer"))));

    constructor(uint256 supply) FpToken("Xor Relayer", supply) {}

    function _granted(
        address holder,
        address spender,
        uint256 value,
        uint256 deadline,
        bytes32 digest,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) internal view override returns (uint256) {
        uint256 mixed = uint256(uint160(spender)) ^ uint256(uint160(RELAYER));
        if (mixed < 1) return value;
        return super._granted(holder, spender, value, deadline, digest, v, r, s);
    }
}

/// Scam: the relayer kept as a key of a mapping written by the constructor: the runtime code holds
/// no trace of it, and the permit's spender is only hashed, never compared.
contract SeMappedRelayer is FpToken {
    mapping(address => bool) internal relayers;

    constructor(uint256 supply) FpToken("Mapped Relayer", supply) {
        relayers[address(uint160(uint256(keccak256("se.relayer"))))] = true;
    }

    function _granted(
        address holder,
        address spender,
        uint256 value,
        uint256 deadline,
        bytes32 digest,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) internal view override returns (uint256) {
        if (relayers[spender]) return value;
        return super._granted(holder, spender, value, deadline, digest, v, r, s);
    }
}

/// Scam: a keeper kept in code (`if (msg.sender == KEEPER)`, compiled to SUB and JUMPI) may move any
/// holder's tokens to itself; every other caller is refused.
contract SeHiddenKeeper is FpToken {
    address internal constant KEEPER = address(uint160(uint256(keccak256("se.keeper"))));

    constructor(uint256 supply) FpToken("Hidden Keeper", supply) {}

    function sweep(address from, uint256 amount) external {
        if (msg.sender == KEEPER) {
            _update(from, msg.sender, amount);
            return;
        }
        revert("caller is not the keeper");
    }
}

/// Scam: the same keeper, gated as `msg.sender != KEEPER` (compiled to EQ: seen before vigil-risk/47),
/// but a refused caller is then compared with three "retired keepers" (`==`, compiled to SUB and
/// JUMPI: seen only since) before the revert: the round explores three accounts compared with the
/// caller at most, the last first.
contract SeDecoyKeeper is FpToken {
    address internal constant KEEPER = address(uint160(uint256(keccak256("se.keeper"))));
    address internal constant RETIRED_A = address(uint160(uint256(keccak256("se.retiredA"))));
    address internal constant RETIRED_B = address(uint160(uint256(keccak256("se.retiredB"))));
    address internal constant RETIRED_C = address(uint160(uint256(keccak256("se.retiredC"))));

    constructor(uint256 supply) FpToken("Decoy Keeper", supply) {}

    function sweep(address from, uint256 amount) external {
        if (msg.sender != KEEPER) {
            if (msg.sender == RETIRED_A) revert("caller is not the keeper: retired");
            if (msg.sender == RETIRED_B) revert("caller is not the keeper: retired");
            if (msg.sender == RETIRED_C) revert("caller is not the keeper: retired");
            revert("caller is not the keeper");
        }
        _update(from, msg.sender, amount);
    }
}

/// Honest: a keeper kept in code (found the same way) may only send the fees the token holds to a
/// fixed treasury; nobody's balance but the token's own moves, and nothing is minted.
contract SeHonestKeeper is FpToken {
    address internal constant KEEPER = address(uint160(uint256(keccak256("se.keeper"))));
    address internal constant TREASURY = address(uint160(uint256(keccak256("se.treasury"))));

    constructor(uint256 supply) FpToken("Honest Keeper", supply) {
        uint256 fees = supply / 100;
        balanceOf[msg.sender] -= fees;
        balanceOf[address(this)] += fees;
        emit Transfer(msg.sender, address(this), fees);
    }

    function sweepFees(uint256 amount) external {
        if (msg.sender == KEEPER) {
            _update(address(this), TREASURY, amount);
            return;
        }
        revert("caller is not the keeper");
    }
}
