// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// Tokens for the forged-permit round (forgedPermitRound in discoverPowers.ts):
/// scanner/evm/forgedPermit.test.ts. Each has a hand-rolled EIP-2612 permit that differs only in how
/// it checks the signature, and moves balances through one helper that mints from the zero address
/// and burns to it (the shape of OpenZeppelin 5's _update), so a transferFrom from the zero address
/// that an allowance lets through mints.
abstract contract FpToken {
    bytes32 internal constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 internal constant TRANSFER_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    string public name;
    string public symbol = "FP";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;
    mapping(address => mapping(bytes32 => bool)) public authorizationState;
    address public owner;
    address public pair;
    bytes32 public immutable DOMAIN_SEPARATOR;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory tokenName, uint256 supply) {
        name = tokenName;
        owner = msg.sender;
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(tokenName)),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    /// Once, after listing: the pool is then fixed.
    function setPair(address newPair) external {
        require(msg.sender == owner && pair == address(0), "owner");
        pair = newPair;
    }

    function renounceOwnership() external {
        require(msg.sender == owner, "owner");
        owner = address(0);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(to != address(0), "zero receiver");
        _update(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        require(to != address(0), "zero receiver");
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _update(from, to, value);
        return true;
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        require(block.timestamp <= deadline, "expired");
        bytes32 digest =
            _digest(keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonces[holder]++, deadline)));
        uint256 granted = _granted(holder, spender, value, deadline, digest, v, r, s);
        allowance[holder][spender] = granted;
        emit Approval(holder, spender, granted);
    }

    /// The allowance a permit grants, or a revert: here the sound check (the holder signed it, and
    /// the zero address signs nothing).
    function _granted(address holder, address, uint256 value, uint256, bytes32 digest, uint8 v, bytes32 r, bytes32 s)
        internal
        view
        virtual
        returns (uint256)
    {
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0) && signer == holder, "invalid signature");
        return value;
    }

    function _digest(bytes32 structHash) internal view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR, structHash));
    }

    /// ecrecover of a 65-byte r, s, v signature; the zero address for any other length.
    function _recover(bytes32 digest, bytes memory signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        return ecrecover(digest, v, r, s);
    }

    /// Mint-or-move (OpenZeppelin 5's _update): a transfer from the zero address mints.
    function _update(address from, address to, uint256 value) internal virtual {
        if (from == address(0)) {
            totalSupply += value;
        } else {
            require(balanceOf[from] >= value, "balance");
            balanceOf[from] -= value;
        }
        if (to == address(0)) totalSupply -= value;
        else balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// "Gas-lean": ecrecover's answer compared with the holder and never with zero. An invalid
/// signature recovers to the zero address, so anyone approves any spender for it, and a transferFrom
/// from the zero address mints: a hidden mint anyone can use (the insider first).
contract FpZeroSigner is FpToken {
    constructor(uint256 supply) FpToken("Lean Permit", supply) {}

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

/// "Signatures are checked by the relayer": the permit checks none, so anyone approves themselves
/// for any holder's tokens and takes them.
contract FpUnchecked is FpToken {
    constructor(uint256 supply) FpToken("Relayed Permit", supply) {}

    function _granted(address, address, uint256 value, uint256, bytes32, uint8, bytes32, bytes32)
        internal
        pure
        override
        returns (uint256)
    {
        return value;
    }
}

/// Honest: only the sound EIP-2612 permit. Same mint-or-move helper, so only the check differs
/// from FpZeroSigner.
contract FpSound is FpToken {
    constructor(uint256 supply) FpToken("Sound Permit", supply) {}
}

/// EIP-3009's transferWithAuthorization (USDC's gasless transfers), the signer's answer compared
/// with `from` only (`zeroChecked` false) or with zero too; the EIP-2612 permit beside it is sound.
abstract contract FpAuthorization is FpToken {
    function _zeroChecked() internal pure virtual returns (bool);

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
        require(!authorizationState[from][nonce], "authorization used");
        authorizationState[from][nonce] = true;
        bytes32 digest =
            _digest(keccak256(abi.encode(TRANSFER_TYPEHASH, from, to, value, validAfter, validBefore, nonce)));
        address signer = ecrecover(digest, v, r, s);
        require(signer == from && (signer != address(0) || !_zeroChecked()), "invalid signature");
        _update(from, to, value);
    }
}

/// "Gasless transfers": an invalid signature is the zero address's, so anyone's forged
/// authorization from the zero address mints.
contract FpAuthorizationZero is FpAuthorization {
    constructor(uint256 supply) FpToken("Gasless Transfer", supply) {}

    function _zeroChecked() internal pure override returns (bool) {
        return false;
    }
}

/// Honest: the same authorization, the zero address refused.
contract FpAuthorizationSound is FpAuthorization {
    constructor(uint256 supply) FpToken("Sound Transfer", supply) {}

    function _zeroChecked() internal pure override returns (bool) {
        return true;
    }
}

/// DAI's permit (holder, spender, nonce, expiry, allowed) beside the sound EIP-2612 one: "the
/// relayer checks signatures", so it checks none, and anyone approves themselves for any holder.
contract FpDaiUnchecked is FpToken {
    constructor(uint256 supply) FpToken("Relayed Dai Permit", supply) {}

    function permit(address holder, address spender, uint256 nonce, uint256 expiry, bool allowed, uint8, bytes32, bytes32)
        external
    {
        require(expiry == 0 || block.timestamp <= expiry, "expired");
        require(nonce == nonces[holder]++, "nonce");
        uint256 value = allowed ? type(uint256).max : 0;
        allowance[holder][spender] = value;
        emit Approval(holder, spender, value);
    }
}

/// Honest: OpenZeppelin's ERC20Permit, nothing added.
contract FpOpenZeppelin is ERC20Permit {
    address private immutable lister;
    address public pair;

    constructor(uint256 supply) ERC20("Standard Permit", "STDP") ERC20Permit("Standard Permit") {
        lister = msg.sender;
        _mint(msg.sender, supply);
    }

    /// Once, after listing, by the deployer: the pool is then fixed.
    function setPair(address newPair) external {
        require(msg.sender == lister && pair == address(0), "lister");
        pair = newPair;
    }
}
