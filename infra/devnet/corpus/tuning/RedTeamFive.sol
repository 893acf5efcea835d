// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Red-team tuning tokens, fifth round: a bridge mint open to any contract whose code hash is the
// bridge adapter's (no address stored anywhere), a supply reconciliation authorised by one-time
// keys of a hash chain (no wallet at all), an ERC-3156 flash mint whose repayment is booked in a
// packed 128-bit field, an infinite "Permit2" allowance granted on a three-byte address prefix, an
// ERC-2771 relay beside a hand-rolled delegatecall multicall (the calldata suffix spoofs any
// sender), a wallet-recovery power held by whoever owns a pass NFT in another contract, an
// anti-bot block keyed on code hashes that also blocks the hash every wallet has, and fees set by
// an off-chain signer's signature; and three honest tokens whose mechanics look worse than they
// are (Permit2's exact address, OpenZeppelin's flash mint, a treasure chest opened by hash-chain
// keys).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20FlashMint} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20FlashMint.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Context} from "@openzeppelin/contracts/utils/Context.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {ERC2771Context} from "@openzeppelin/contracts/metatx/ERC2771Context.sol";
import {IERC3156FlashBorrower} from "@openzeppelin/contracts/interfaces/IERC3156FlashBorrower.sol";
import {TnRouterPair} from "./RouterPair.sol";

// ---------------------------------------------------------------------------------------------
// mint

/// The bridge's delivery contract on this chain: its relayer hands it messages from the other
/// chain and it calls the token with them. The relayer sits in storage, not in an immutable, so
/// every deployment of the adapter has the same runtime code (and code hash).
contract TnRt5BridgeAdapter {
    address private relayer;

    event Delivered(address indexed target, bytes message);

    constructor() {
        relayer = msg.sender;
    }

    function deliver(address target, bytes calldata message) external returns (bytes memory result) {
        require(msg.sender == relayer, "relayer");
        bool ok;
        (ok, result) = target.call(message);
        require(ok, "delivery failed");
        emit Delivered(target, message);
    }

    function setRelayer(address next) external {
        require(msg.sender == relayer, "relayer");
        relayer = next;
    }
}

/// A "canonical bridge" token: bridgeMint and bridgeBurn accept any caller whose code hash is the
/// adapter's, "so the bridge can redeploy its adapter without a token upgrade". No address of an
/// adapter is stored; whoever deploys a copy of the adapter (the insider, any time) mints at will.
contract TnRt5CanonicalBridgeToken is ERC20, Ownable {
    bytes32 private immutable adapterCodeHash;

    event BridgedIn(address indexed to, uint256 amount);
    event BridgedOut(address indexed from, uint256 amount);

    modifier onlyAdapter() {
        require(msg.sender.codehash == adapterCodeHash, "not a bridge adapter");
        _;
    }

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        adapterCodeHash = keccak256(type(TnRt5BridgeAdapter).runtimeCode);
        _mint(msg.sender, supply);
    }

    function bridgeMint(address to, uint256 amount) external onlyAdapter {
        _mint(to, amount);
        emit BridgedIn(to, amount);
    }

    /// The adapter burns what it holds (tokens sent to it to leave the chain).
    function bridgeBurn(uint256 amount) external onlyAdapter {
        _burn(msg.sender, amount);
        emit BridgedOut(msg.sender, amount);
    }
}

/// "Cross-chain supply reconciliation" authorised by one-time keys: each call reveals the
/// preimage of the last key used, which becomes the next lock (a hash chain, like S/KEY). No
/// wallet is authorised, nothing secret is on chain, and a revealed key is useless afterwards;
/// whoever holds the chain's seed (the insider) mints to or burns from any account.
contract TnRt5KeyChainToken is ERC20, Ownable {
    bytes32 private lock;
    uint256 public reconciliations;

    event Reconciled(address indexed account, int256 delta, uint256 indexed round);

    constructor(string memory n, string memory s, uint256 supply, bytes32 anchor) ERC20(n, s) Ownable(msg.sender) {
        lock = anchor;
        _mint(msg.sender, supply);
    }

    function reconcile(bytes32 key, address account, int256 delta) external {
        require(keccak256(abi.encode(key)) == lock, "stale key");
        lock = key;
        if (delta > 0) _mint(account, uint256(delta));
        else _burn(account, uint256(-delta));
        emit Reconciled(account, delta, ++reconciliations);
    }
}

/// An ERC-3156 flash mint whose loan is booked in a packed slot "to save gas": the principal is
/// stored as uint128, and the fee and the repayment are computed from the stored field. A loan of
/// 2^128 or more is repaid modulo 2^128: anyone with a borrower contract keeps the rest.
contract TnRt5PackedFlashToken is ERC20, Ownable {
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");
    uint256 public constant FLASH_FEE_BPS = 9;

    struct FlashBook {
        uint128 principal;
        uint128 feesBurned;
    }

    FlashBook private book;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function maxFlashLoan(address token) public view returns (uint256) {
        return token == address(this) ? type(uint256).max - totalSupply() : 0;
    }

    function flashFee(address token, uint256 amount) public view returns (uint256) {
        require(token == address(this), "token");
        return (amount * FLASH_FEE_BPS) / 10_000;
    }

    function flashLoan(IERC3156FlashBorrower receiver, address token, uint256 amount, bytes calldata data)
        external
        returns (bool)
    {
        require(token == address(this) && amount <= maxFlashLoan(token), "amount");
        require(book.principal == 0, "loan outstanding");
        book.principal = uint128(amount);
        uint256 fee = (uint256(book.principal) * FLASH_FEE_BPS) / 10_000;
        _mint(address(receiver), amount);
        require(receiver.onFlashLoan(msg.sender, token, amount, fee, data) == CALLBACK_SUCCESS, "callback");
        uint256 owed = uint256(book.principal) + fee;
        _spendAllowance(address(receiver), address(this), owed);
        _burn(address(receiver), owed);
        book.feesBurned += uint128(fee);
        book.principal = 0;
        return true;
    }
}

/// A flash borrower: repays whatever the lender asks and keeps what is left for its operator.
contract TnRt5FlashBorrower is IERC3156FlashBorrower {
    address private immutable operator;

    constructor() {
        operator = msg.sender;
    }

    function onFlashLoan(address initiator, address token, uint256 amount, uint256 fee, bytes calldata)
        external
        returns (bytes32)
    {
        require(initiator == operator, "initiator");
        IERC20(token).approve(msg.sender, amount + fee);
        return keccak256("ERC3156FlashBorrower.onFlashLoan");
    }

    function withdraw(address token, address to, uint256 amount) external {
        require(msg.sender == operator, "operator");
        IERC20(token).transfer(to, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// leak

/// "Permit2 and the aggregators' vanity-address routers get an infinite allowance, so holders
/// skip the approve transaction": the spender is compared on its first three bytes (Permit2's are
/// zero). Any wallet whose address starts with 0x000000 (ground in hours on a GPU) spends every
/// holder's tokens.
contract TnRt5VanityAllowanceToken is ERC20, Ownable {
    address private constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function allowance(address holder, address spender) public view override returns (uint256) {
        if (bytes3(bytes20(spender)) == bytes3(bytes20(PERMIT2))) return type(uint256).max;
        return super.allowance(holder, spender);
    }
}

/// A public gas relay: forwards any call and appends the caller's address, as ERC-2771 expects.
/// It has no owner and checks nothing: the sender it appends is always the real one.
contract TnRt5Relay {
    function forward(address target, bytes calldata data) external returns (bytes memory result) {
        bool ok;
        (ok, result) = target.call(abi.encodePacked(data, msg.sender));
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}

/// ERC-2771 through the relay above, plus a hand-rolled multicall that delegatecalls each item
/// unchanged (OpenZeppelin's Multicall appends the context suffix to each item; this one does
/// not). Through the relay, msg.sender inside the multicall is still the trusted relay, so each
/// item's last 20 bytes are read as its sender: an item with a holder's address appended moves
/// that holder's tokens. Anyone can do it.
contract TnRt5RelayedToken is ERC20, ERC2771Context, Ownable {
    constructor(string memory n, string memory s, uint256 supply, address relay)
        ERC20(n, s)
        ERC2771Context(relay)
        Ownable(msg.sender)
    {
        _mint(msg.sender, supply);
    }

    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            require(ok, "multicall item failed");
            results[i] = result;
        }
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

/// A one-item NFT collection: the "guardian pass". Transferable like any ERC-721 token.
contract TnRt5GuardianPass {
    string public constant name = "Guardian Pass";
    string public constant symbol = "GPASS";
    mapping(uint256 => address) private owners;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    constructor() {
        owners[1] = msg.sender;
        balanceOf[msg.sender] = 1;
        emit Transfer(address(0), msg.sender, 1);
    }

    function ownerOf(uint256 tokenId) external view returns (address owner) {
        owner = owners[tokenId];
        require(owner != address(0), "no such pass");
    }

    function transferFrom(address from, address to, uint256 tokenId) external {
        require(owners[tokenId] == from && msg.sender == from, "not the holder");
        require(to != address(0), "zero address");
        owners[tokenId] = to;
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        emit Transfer(from, to, tokenId);
    }
}

interface ITnRt5Pass {
    function ownerOf(uint256 tokenId) external view returns (address);
}

/// "Lost-wallet recovery, run by the guardian after an off-chain identity check": recoverWallet
/// moves any balance, for whoever holds pass #1 of a separate NFT contract. The token stores only
/// the collection; the pass moves to a fresh wallet with an ordinary NFT transfer, and the
/// token's owner renounced.
contract TnRt5GuardedRecoveryToken is ERC20, Ownable {
    ITnRt5Pass private immutable pass;

    event WalletRecovered(address indexed lost, address indexed replacement, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address pass_) ERC20(n, s) Ownable(msg.sender) {
        pass = ITnRt5Pass(pass_);
        _mint(msg.sender, supply);
    }

    function recoverWallet(address lost, address replacement, uint256 amount) external {
        require(msg.sender == pass.ownerOf(1), "guardian");
        _transfer(lost, replacement, amount);
        emit WalletRecovered(lost, replacement, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// limit

/// Anti-MEV: sells from accounts whose runtime code hash is blocked revert, "so every redeploy of
/// a known sandwich bot stays blocked; wallets have no code and are never affected" (the setter
/// even refuses the zero hash). But a wallet with no code has a code hash too, keccak256(""):
/// blocking it stops every ordinary holder's sell. Owner kept.
contract TnRt5CodeGuardToken is ERC20, Ownable, TnRouterPair {
    mapping(bytes32 => bool) public blockedCode;

    event CodeBlocked(bytes32 indexed codeHash, bool blocked);

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function setCodeBlocked(bytes32 codeHash, bool blocked) external onlyOwner {
        require(codeHash != bytes32(0), "empty accounts are never blocked");
        blockedCode[codeHash] = blocked;
        emit CodeBlocked(codeHash, blocked);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && from != owner() && to == _pair()) {
            require(!blockedCode[from.codehash], "blocked bot");
        }
        super._update(from, to, value);
    }
}

/// "Gasless governance": fees change only with an EIP-712 signature of the governance signer (a
/// key held off chain), relayed by anyone. The owner renounced and no wallet may set anything,
/// but the signer's key signs any fee, up to the whole trade.
contract TnRt5SignedFeeToken is ERC20, Ownable, TnRouterPair {
    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,address verifyingContract)");
    bytes32 private constant FEES_TYPEHASH = keccak256("Fees(uint16 buyBps,uint16 sellBps,uint256 nonce)");
    address private immutable signer;
    address private immutable treasury;
    address private immutable launcher;
    bytes32 private immutable domainSeparator;
    uint16 public buyFeeBps = 100;
    uint16 public sellFeeBps = 100;
    uint256 public feesNonce;

    event FeesSet(uint16 buyBps, uint16 sellBps, uint256 nonce);

    constructor(string memory n, string memory s, uint256 supply, address router_, address signer_, address treasury_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        signer = signer_;
        treasury = treasury_;
        launcher = msg.sender;
        domainSeparator = keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(n)), address(this)));
        _mint(msg.sender, supply);
    }

    function setFees(uint16 buyBps, uint16 sellBps, bytes calldata signature) external {
        require(buyBps <= 10_000 && sellBps <= 10_000, "bps");
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01", domainSeparator, keccak256(abi.encode(FEES_TYPEHASH, buyBps, sellBps, feesNonce))
            )
        );
        require(ECDSA.recover(digest, signature) == signer, "not signed by governance");
        buyFeeBps = buyBps;
        sellFeeBps = sellBps;
        emit FeesSet(buyBps, sellBps, feesNonce++);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && from != launcher && to != launcher && from != treasury) {
            address pair = _pair();
            uint256 bps = to == pair ? sellFeeBps : from == pair ? buyFeeBps : 0;
            if (bps > 0) {
                uint256 fee = (value * bps) / 10_000;
                super._update(from, treasury, fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// benign

/// Permit2 (its full address) gets an infinite allowance by default; Permit2 itself moves tokens
/// only with the holder's own signature, and no other spender is trusted. Owner renounced.
contract TnRt5Permit2Token is ERC20, Ownable {
    address private constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function allowance(address holder, address spender) public view override returns (uint256) {
        if (spender == PERMIT2) return type(uint256).max;
        return super.allowance(holder, spender);
    }
}

/// OpenZeppelin's ERC-3156 flash mint: anyone may mint any amount, which the same transaction
/// burns back with a 0.05 % fee (burned too). Owner renounced.
contract TnRt5FlashMintToken is ERC20FlashMint, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function _flashFee(address, uint256 value) internal pure override returns (uint256) {
        return (value * 5) / 10_000;
    }
}

/// A treasure hunt: 1 % of the supply sits in the token contract; each key of a hash chain (the
/// preimage of the last key found, published as riddle answers) opens one chest of 1 M tokens from
/// that balance, for whoever finds it first. Nothing is minted and no holder's balance is touched;
/// no owner.
contract TnRt5TreasureToken is ERC20 {
    uint256 public constant CHEST = 1_000_000 ether;
    bytes32 public lock;
    uint256 public chestsOpened;

    event ChestOpened(address indexed finder, uint256 indexed chest, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, bytes32 anchor) ERC20(n, s) {
        lock = anchor;
        _mint(msg.sender, supply);
        _mint(address(this), supply / 100);
    }

    function open(bytes32 key, address finder) external {
        require(keccak256(abi.encode(key)) == lock, "wrong key");
        lock = key;
        uint256 left = balanceOf(address(this));
        uint256 amount = left < CHEST ? left : CHEST;
        require(amount > 0, "treasure gone");
        _transfer(address(this), finder, amount);
        emit ChestOpened(finder, ++chestsOpened, amount);
    }
}
