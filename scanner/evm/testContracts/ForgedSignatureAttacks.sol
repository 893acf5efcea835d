// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {FpToken} from "./ForgedPermit.sol";

/// Attacks on vigil-risk/45's forged-signature round (forgedSignatureRound in discoverPowers.ts):
/// scanner/evm/forgedSignature.attacks.test.ts. Signed entry points whose check a forged signature
/// gets through, but not the one /45 forged (v = 27, r = s = 0, an unlimited value, a deadline in
/// 2100, the caller as spender, three standard selectors), and honest tokens beside them. Their
/// base, FpToken, is ForgedPermit.sol's.

/// "Hardened against malleability": v must be 27 or 28, r and s non-zero, s in the lower half of
/// the curve's order (OpenZeppelin's checks), but ecrecover's answer is compared with the holder and
/// never with zero. The round's r = s = 0 is refused; r = 2^256 - 1 (beyond the curve's order, so
/// ecrecover answers the zero address) with s = 1 passes every check for the zero address: a mint.
contract FaMalleabilityChecked is FpToken {
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    constructor(uint256 supply) FpToken("Hardened Permit", supply) {}

    function _granted(address holder, address, uint256 value, uint256, bytes32 digest, uint8 v, bytes32 r, bytes32 s)
        internal
        pure
        override
        returns (uint256)
    {
        require(v == 27 || v == 28, "bad v");
        require(r != bytes32(0) && s != bytes32(0), "empty signature");
        require(uint256(s) <= HALF_ORDER, "malleable");
        require(ecrecover(digest, v, r, s) == holder, "invalid signature");
        return value;
    }
}

/// "Unlimited approvals get the strict check": the zero address is refused only for a permit of
/// type(uint256).max, the round's value. A permit of 2^255 for the zero address, with no signature,
/// passes, and the transferFrom from the zero address mints.
contract FaUnlimitedOnlyChecked is FpToken {
    constructor(uint256 supply) FpToken("Strict Unlimited Permit", supply) {}

    function _granted(address holder, address, uint256 value, uint256, bytes32 digest, uint8 v, bytes32 r, bytes32 s)
        internal
        pure
        override
        returns (uint256)
    {
        address signer = ecrecover(digest, v, r, s);
        require(signer == holder, "invalid signature");
        if (value == type(uint256).max) require(signer != address(0), "invalid signature");
        return value;
    }
}

/// "Signatures are short-lived": a permit's deadline and an authorization's validBefore must fall
/// within the hour (the round's are in 2100), and neither refuses the zero address: a permit or an
/// authorization forged from it with a deadline within the hour mints.
contract FaShortWindow is FpToken {
    constructor(uint256 supply) FpToken("Short Window", supply) {}

    function _granted(
        address holder,
        address,
        uint256 value,
        uint256 deadline,
        bytes32 digest,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) internal view override returns (uint256) {
        require(deadline <= block.timestamp + 1 hours, "deadline too far");
        require(ecrecover(digest, v, r, s) == holder, "invalid signature");
        return value;
    }

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
    ) external {
        require(block.timestamp > validAfter && block.timestamp < validBefore, "not valid now");
        require(validBefore <= block.timestamp + 1 hours, "valid too long");
        require(!authorizationState[from][nonce], "authorization used");
        authorizationState[from][nonce] = true;
        bytes32 digest =
            _digest(keccak256(abi.encode(TRANSFER_TYPEHASH, from, to, value, validAfter, validBefore, nonce)));
        require(ecrecover(digest, v, r, s) == from, "invalid signature");
        _update(from, to, value);
    }
}

/// The sound EIP-2612 permit, and beside it a permit taking the signature as bytes (as smart-account
/// wallets send it): its ecrecover answer is compared with the owner and never with zero, so 65 zero
/// bytes sign for the zero address, and the transferFrom from it mints.
contract FaPermitBytes is FpToken {
    constructor(uint256 supply) FpToken("Bytes Permit", supply) {}

    function permit(address holder, address spender, uint256 value, uint256 deadline, bytes calldata signature)
        external
    {
        require(block.timestamp <= deadline, "expired");
        bytes32 digest =
            _digest(keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonces[holder]++, deadline)));
        require(_recover(digest, signature) == holder, "invalid signature");
        allowance[holder][spender] = value;
        emit Approval(holder, spender, value);
    }
}

/// The sound EIP-2612 permit, and USDC v2.2's transferWithAuthorization taking the signature as bytes,
/// which "the relayer verifies" and the token never does: anyone moves any holder's tokens.
contract FaAuthorizationBytes is FpToken {
    constructor(uint256 supply) FpToken("Bytes Authorization", supply) {}

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata
    ) external {
        require(block.timestamp > validAfter && block.timestamp < validBefore, "not valid now");
        require(!authorizationState[from][nonce], "authorization used");
        authorizationState[from][nonce] = true;
        _update(from, to, value);
    }
}

/// "Half the supply burned at launch", kept as the zero address's balance (a burn is a transfer to
/// it; the total supply counts it). Balances only move: a transfer from the zero address takes the
/// burned tokens back. `checked` picks the permit's check.
abstract contract FaBurnedBase is FpToken {
    constructor(uint256 supply) {
        totalSupply += supply;
        balanceOf[address(0)] = supply;
        emit Transfer(msg.sender, address(0), supply);
    }

    function burn(uint256 value) external {
        _update(msg.sender, address(0), value);
    }

    function _update(address from, address to, uint256 value) internal override {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// The burned half held by the zero address, and a permit that compares ecrecover's answer with the
/// holder and never with zero: anyone approves themselves for the burned tokens and takes them back
/// (the supply unchanged: no mint as the round measures it, and no 1000× supply to take).
contract FaBurnedResurrected is FaBurnedBase {
    constructor(uint256 supply) FpToken("Burned Half", supply) FaBurnedBase(supply) {}

    function _granted(address holder, address, uint256 value, uint256, bytes32 digest, uint8 v, bytes32 r, bytes32 s)
        internal
        pure
        override
        returns (uint256)
    {
        require(ecrecover(digest, v, r, s) == holder, "invalid signature");
        return value;
    }
}

/// Honest: the same burned half, with the sound permit.
contract FaBurnedSound is FaBurnedBase {
    constructor(uint256 supply) FpToken("Burned Half Sound", supply) FaBurnedBase(supply) {}
}

/// "Gasless approvals are capped at a thousand tokens each; relayers verify the signatures": no
/// check, so anyone approves themselves for a thousand tokens of any holder, as often as they like
/// (each permit a fresh nonce). The round's transferFrom of half the holder's balance exceeds the cap.
contract FaCappedPermit is FpToken {
    uint256 public constant GASLESS_CAP = 1_000 ether;

    constructor(uint256 supply) FpToken("Capped Permit", supply) {}

    function _granted(address, address, uint256 value, uint256, bytes32, uint8, bytes32, bytes32)
        internal
        pure
        override
        returns (uint256)
    {
        return value < GASLESS_CAP ? value : GASLESS_CAP;
    }
}

/// "Our relayer submits users' permits": a permit naming the relayer (a wallet the insider holds) as
/// spender skips the signature, so the relayer takes any holder's tokens. Any other spender is
/// checked soundly, so a forged permit for any other caller is refused.
contract FaRelayerSpender is FpToken {
    address public constant RELAYER = address(uint160(uint256(keccak256("fa.relayer"))));

    constructor(uint256 supply) FpToken("Relayed Permit", supply) {}

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
        return super._granted(holder, spender, value, deadline, digest, v, r, s);
    }
}

/// Honest: OpenZeppelin's ERC20 with a hand-rolled permit that compares ecrecover's answer with the
/// owner and never with zero. The flaw is harmless: OpenZeppelin refuses an approval by the zero
/// address (ERC20InvalidApprover), and a transfer from it.
contract FaHarmlessZeroSigner is ERC20 {
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    address private immutable lister;
    address public pair;
    bytes32 public immutable DOMAIN_SEPARATOR;
    mapping(address => uint256) public nonces;

    constructor(uint256 supply) ERC20("Harmless Zero Signer", "HZS") {
        lister = msg.sender;
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes("Harmless Zero Signer")),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
        _mint(msg.sender, supply);
    }

    /// Once, after listing, by the deployer: the pool is then fixed.
    function setPair(address newPair) external {
        require(msg.sender == lister && pair == address(0), "lister");
        pair = newPair;
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        require(block.timestamp <= deadline, "expired");
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR,
                keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonces[holder]++, deadline))
            )
        );
        require(ecrecover(digest, v, r, s) == holder, "invalid signature");
        _approve(holder, spender, value);
    }
}
