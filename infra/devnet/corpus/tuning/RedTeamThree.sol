// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Red-team tuning tokens, third round: a V1-to-V2 migration that mints against a legacy token its
// owner can still mint, Merkle airdrop claims that mint against a root another contract publishes,
// a hand-rolled two-step ownership whose renounce forgets the nominee, a permit that also accepts
// a "recovery guardian's" signature, an operator check with its mapping keys swapped, a "relayed
// sell" that treats a holder's router approval as consent, a sell cap tied to a reserve wallet's
// balance, and a points loop whose "capped" gas budget exceeds any block; and two honest tokens
// whose mechanics look worse than they are (an ERC-2771 trusted forwarder, a team-grant clawback).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Context} from "@openzeppelin/contracts/utils/Context.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {ERC2771Context} from "@openzeppelin/contracts/metatx/ERC2771Context.sol";
import {ERC2771Forwarder} from "@openzeppelin/contracts/metatx/ERC2771Forwarder.sol";
import {TnRouterPair} from "./RouterPair.sol";

// ---------------------------------------------------------------------------------------------
// mint

/// The project's first token. Its owner (the deployer) kept the minter role when V2 launched.
contract TnRt3LegacyToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply, address holders) ERC20(n, s) Ownable(msg.sender) {
        _mint(holders, supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

/// V2: holders of the legacy token swap it one for one; the legacy tokens go to the dead address
/// and V2 is minted on demand, so V2's supply follows whatever the legacy token's owner mints.
contract TnRt3MigratedToken is ERC20, Ownable {
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;
    ERC20 public immutable legacy;
    uint256 public immutable migrationEnds;

    event Migrated(address indexed holder, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address legacy_) ERC20(n, s) Ownable(msg.sender) {
        legacy = ERC20(legacy_);
        migrationEnds = block.timestamp + 365 days;
        _mint(msg.sender, supply);
    }

    function migrate(uint256 amount) external {
        require(block.timestamp < migrationEnds, "migration over");
        require(legacy.transferFrom(msg.sender, DEAD, amount), "legacy");
        _mint(msg.sender, amount);
        emit Migrated(msg.sender, amount);
    }
}

/// Where airdrop roots are published, by token; its publisher (the deployer) is an immutable.
contract TnRt3DropRegistry {
    address private immutable publisher;
    mapping(address => bytes32) public rootOf;
    mapping(address => uint256) public epochOf;

    event RootPublished(address indexed token, uint256 indexed epoch, bytes32 root);

    constructor() {
        publisher = msg.sender;
    }

    function publish(address token, bytes32 root) external {
        require(msg.sender == publisher, "publisher");
        rootOf[token] = root;
        emit RootPublished(token, ++epochOf[token], root);
    }
}

interface ITnRt3DropRegistry {
    function rootOf(address token) external view returns (bytes32);
}

/// Community airdrop: claims are minted against the Merkle root the registry holds for this token
/// (a leaf is the account and its amount), once per account and root. Nothing caps the total.
contract TnRt3MerkleDropToken is ERC20, Ownable {
    ITnRt3DropRegistry public immutable registry;
    mapping(bytes32 => mapping(address => bool)) public claimed;

    event Claimed(address indexed account, uint256 amount, bytes32 root);

    constructor(string memory n, string memory s, uint256 supply, address registry_) ERC20(n, s) Ownable(msg.sender) {
        registry = ITnRt3DropRegistry(registry_);
        _mint(msg.sender, supply);
    }

    function claim(uint256 amount, bytes32[] calldata proof) external {
        bytes32 root = registry.rootOf(address(this));
        require(root != bytes32(0), "no drop");
        require(!claimed[root][msg.sender], "claimed");
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(msg.sender, amount))));
        require(MerkleProof.verify(proof, root, leaf), "proof");
        claimed[root][msg.sender] = true;
        _mint(msg.sender, amount);
        emit Claimed(msg.sender, amount, root);
    }
}

/// A hand-rolled two-step ownership: transferOwnership only nominates, the nominee accepts. The
/// renounce clears the owner but not the nominee, who may still accept afterwards.
abstract contract TnRt3TwoStepOwnable is Context {
    address private _owner;
    address private _nominee;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event OwnershipNominated(address indexed owner, address indexed nominee);

    constructor() {
        _owner = _msgSender();
        emit OwnershipTransferred(address(0), _owner);
    }

    modifier onlyOwner() {
        require(_msgSender() == _owner, "not owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function transferOwnership(address nominee) external onlyOwner {
        _nominee = nominee;
        emit OwnershipNominated(_owner, nominee);
    }

    function acceptOwnership() external {
        require(_msgSender() == _nominee, "not nominee");
        emit OwnershipTransferred(_owner, _nominee);
        _owner = _nominee;
        _nominee = address(0);
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }
}

/// Emissions are the owner's; the owner renounced, after nominating a successor.
contract TnRt3StewardToken is ERC20, TnRt3TwoStepOwnable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) {
        _mint(_msgSender(), supply);
    }

    function mintEmission(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// leak

/// EIP-2612 permit with "social recovery": when the signature is not the owner's, the recovery
/// guardian's signature over the same permit (an eth_sign of the token and the permit's hash)
/// approves instead, for any owner. The guardian is a key, not a wallet on chain.
contract TnRt3RecoveryPermitToken is ERC20, ERC20Permit, Ownable {
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    address private immutable guardian;

    constructor(string memory n, string memory s, uint256 supply, address guardian_)
        ERC20(n, s)
        ERC20Permit(n)
        Ownable(msg.sender)
    {
        guardian = guardian_;
        _mint(msg.sender, supply);
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        public
        override
    {
        require(block.timestamp <= deadline, "expired");
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, _useNonce(holder), deadline));
        address signer = ECDSA.recover(_hashTypedDataV4(structHash), v, r, s);
        if (signer != holder) {
            bytes32 recovery = MessageHashUtils.toEthSignedMessageHash(keccak256(abi.encodePacked(address(this), structHash)));
            require(ECDSA.recover(recovery, v, r, s) == guardian, "signature");
        }
        _approve(holder, spender, value);
    }
}

/// Operators (as in ERC-777): a holder names operators who may move its tokens. The view reads
/// the mapping the right way round; operatorTransfer reads it the wrong way round, so anyone who
/// names a holder as its own operator may move that holder's tokens.
contract TnRt3OperatorToken is ERC20, Ownable {
    mapping(address => mapping(address => bool)) private _operators;

    event OperatorSet(address indexed holder, address indexed operator, bool approved);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setOperator(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit OperatorSet(msg.sender, operator, approved);
    }

    function isOperatorFor(address operator, address holder) public view returns (bool) {
        return operator == holder || _operators[holder][operator];
    }

    function operatorTransfer(address from, address to, uint256 amount) external {
        require(from == msg.sender || _operators[msg.sender][from], "not operator");
        _transfer(from, to, amount);
    }
}

/// "Gasless sells": a relayer takes the tokens of a holder who approved the router, to sell them
/// and forward the proceeds off chain. The router approval every seller gave counts as consent,
/// and the tokens land in the relayer's own wallet.
contract TnRt3RelaySellToken is ERC20, Ownable, TnRouterPair {
    address private immutable relayer;

    event SellRelayed(address indexed holder, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address router_, address relayer_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        relayer = relayer_;
        _mint(msg.sender, supply);
    }

    function relaySell(address holder, uint256 amount) external {
        require(msg.sender == relayer, "relayer");
        _spendAllowance(holder, dexRouter, amount);
        _transfer(holder, relayer, amount);
        emit SellRelayed(holder, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// limit

/// "Reserve-covered sells": no sell may exceed what the stability reserve (a wallet minted 5 % at
/// deploy) holds. The reserve moving its tokens away, an ordinary transfer, stops every sell.
contract TnRt3ReserveCoverToken is ERC20, Ownable, TnRouterPair {
    address public immutable stabilityReserve;

    constructor(string memory n, string memory s, uint256 supply, address router_, address reserve)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        stabilityReserve = reserve;
        _mint(msg.sender, supply);
        _mint(reserve, supply / 20);
    }

    function maxSell() public view returns (uint256) {
        return balanceOf(stabilityReserve);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && from != stabilityReserve && to == _pair()) {
            require(value <= maxSell(), "exceeds reserve cover");
        }
        super._update(from, to, value);
    }
}

/// Loyalty points: every sell spends a gas budget crediting holders, round-robin, with points.
/// The owner may set the budget "between 50,000 and 60,000,000": above any block's gas, so every
/// sell but the owner's runs out of gas.
contract TnRt3PointsToken is ERC20, Ownable, TnRouterPair {
    uint256 public processingGas = 120_000;
    address[] private holders;
    mapping(address => bool) private tracked;
    mapping(address => uint256) public points;
    uint256 private cursor;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function setProcessingGas(uint256 gas) external onlyOwner {
        require(gas >= 50_000 && gas <= 60_000_000, "gas range");
        processingGas = gas;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (to != address(0) && !tracked[to] && to.code.length == 0) {
            tracked[to] = true;
            holders.push(to);
        }
        if (from != address(0) && from != owner() && to == _pair()) _accrue(processingGas);
    }

    function _accrue(uint256 budget) private {
        uint256 count = holders.length;
        uint256 index = cursor;
        uint256 used;
        uint256 left = gasleft();
        while (used < budget) {
            address holder = holders[index % count];
            points[holder] += balanceOf(holder) / 1e18 + 1;
            index++;
            uint256 now_ = gasleft();
            used += left - now_;
            left = now_;
        }
        cursor = index % count;
    }
}

// ---------------------------------------------------------------------------------------------
// benign

/// OpenZeppelin's ERC-2771 forwarder: relays a request only with its signer's own EIP-712
/// signature, nonce and deadline; it has no owner.
contract TnRt3Forwarder is ERC2771Forwarder {
    constructor() ERC2771Forwarder("Gasless Relay") {}
}

/// Meta-transactions: calls through the trusted forwarder (an immutable) act for the address
/// appended to the calldata, which the forwarder checked against the signer. Owner renounced.
contract TnRt3GaslessToken is ERC20, ERC2771Context, Ownable {
    constructor(string memory n, string memory s, uint256 supply, address forwarder)
        ERC20(n, s)
        ERC2771Context(forwarder)
        Ownable(msg.sender)
    {
        _mint(msg.sender, supply);
    }

    function _msgSender() internal view override(Context, ERC2771Context) returns (address) {
        return ERC2771Context._msgSender();
    }

    function _msgData() internal view override(Context, ERC2771Context) returns (bytes calldata) {
        return ERC2771Context._msgData();
    }

    function _contextSuffixLength() internal view override(Context, ERC2771Context) returns (uint256) {
        return ERC2771Context._contextSuffixLength();
    }
}

/// Team grants vest linearly out of an escrow the token itself holds; the owner may claw back
/// what has not vested. Escrowed tokens are the token contract's, never a holder's: nothing
/// touches a wallet's balance.
contract TnRt3TeamEscrowToken is ERC20, Ownable {
    struct Grant {
        uint128 total;
        uint128 released;
        uint64 start;
        uint64 duration;
    }

    mapping(address => Grant) public grants;
    uint256 public escrowed;

    event Granted(address indexed member, uint256 amount, uint64 duration);
    event ClawedBack(address indexed member, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function grant(address member, uint128 amount, uint64 duration) external onlyOwner {
        require(grants[member].total == 0 && amount > 0 && duration > 0, "grant");
        _transfer(msg.sender, address(this), amount);
        grants[member] = Grant(amount, 0, uint64(block.timestamp), duration);
        escrowed += amount;
        emit Granted(member, amount, duration);
    }

    function vested(address member) public view returns (uint256) {
        Grant memory g = grants[member];
        if (g.total == 0) return 0;
        uint256 elapsed = block.timestamp - g.start;
        return elapsed >= g.duration ? g.total : (uint256(g.total) * elapsed) / g.duration;
    }

    function release() external {
        Grant storage g = grants[msg.sender];
        uint256 due = vested(msg.sender) - g.released;
        require(due > 0, "nothing due");
        g.released += uint128(due);
        escrowed -= due;
        _transfer(address(this), msg.sender, due);
    }

    function clawback(address member) external onlyOwner {
        Grant storage g = grants[member];
        uint256 keep = vested(member);
        uint256 unvested = g.total - keep;
        require(unvested > 0, "nothing unvested");
        g.total = uint128(keep);
        g.duration = uint64(block.timestamp - g.start);
        if (g.duration == 0) g.duration = 1;
        escrowed -= unvested;
        _transfer(address(this), owner(), unvested);
        emit ClawedBack(member, unvested);
    }
}
