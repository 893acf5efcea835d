// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Red-team tuning tokens, fourth round: a mint reachable only through the token calling itself
// from a keeper's batch, a "gas-lean" permit whose ecrecover lets the zero address approve and a
// transferFrom that then mints from it, a batch transfer whose unchecked product overflows, a V2
// migration that moves any balance but only inside a window opening two days after deploy, a
// forced transfer for a compliance agent resolved through a name registry, a flat sell fee in
// whole tokens, a marketing wallet the router (which refuses ETH) passes the sanity checks for,
// and a cooldown on tokens received by transfer that any holder can arm on any other; and three
// honest tokens whose mechanics look worse than they are (a self-call mint behind a two-day
// queue, a checked batch transfer, a fixed fee whose recipient a registry resolves).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair, ITnRouter} from "./RouterPair.sol";

interface ITnRt4SwapRouter {
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

/// A name registry: records map a node (a hash) to an address; one admin writes them.
interface ITnRt4NameRegistry {
    function resolve(bytes32 node) external view returns (address);
}

contract TnRt4NameRegistry is ITnRt4NameRegistry {
    address private immutable admin;
    mapping(bytes32 => address) private records;

    event RecordSet(bytes32 indexed node, address resolved);

    constructor() {
        admin = msg.sender;
    }

    function setRecord(bytes32 node, address resolved) external {
        require(msg.sender == admin, "admin");
        records[node] = resolved;
        emit RecordSet(node, resolved);
    }

    function resolve(bytes32 node) external view returns (address) {
        return records[node];
    }
}

// ---------------------------------------------------------------------------------------------
// mint

/// Operations run in batches: a keeper's batch() has the token call itself, and functions marked
/// onlySelf accept only that caller. One of them mints, with no cap.
contract TnRt4KeeperBatchToken is ERC20, Ownable {
    address private immutable keeper;
    string public incentiveNote;

    event IncentivesDistributed(address indexed to, uint256 amount);

    modifier onlySelf() {
        require(msg.sender == address(this), "only through batch");
        _;
    }

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function batch(bytes[] calldata calls) external returns (bytes[] memory results) {
        require(msg.sender == keeper || msg.sender == owner(), "keeper");
        results = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory result) = address(this).call(calls[i]);
            require(ok, "batched call failed");
            results[i] = result;
        }
    }

    function distributeIncentives(address to, uint256 amount) external onlySelf {
        _mint(to, amount);
        emit IncentivesDistributed(to, amount);
    }

    function setIncentiveNote(string calldata note) external onlySelf {
        incentiveNote = note;
    }
}

/// A "gas-lean" permit and transferFrom: allowances in the token's own mapping, the signature
/// checked with a bare ecrecover (which returns the zero address for a bad signature), and
/// transferFrom writing balances through _update, which mints when the sender is the zero address.
contract TnRt4LeanPermitToken is ERC20, Ownable {
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 public immutable DOMAIN_SEPARATOR;
    mapping(address => mapping(address => uint256)) private _allowed;
    mapping(address => uint256) public nonces;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(n)),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
        _mint(msg.sender, supply);
    }

    function allowance(address holder, address spender) public view override returns (uint256) {
        return _allowed[holder][spender];
    }

    function approve(address spender, uint256 value) public override returns (bool) {
        _allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        uint256 allowed = _allowed[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            _allowed[from][msg.sender] = allowed - value;
        }
        _update(from, to, value);
        return true;
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        require(block.timestamp <= deadline, "expired");
        require(v == 27 || v == 28, "v");
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR,
                keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonces[holder]++, deadline))
            )
        );
        require(ecrecover(digest, v, r, s) == holder, "signature");
        _allowed[holder][spender] = value;
        emit Approval(holder, spender, value);
    }
}

/// A hand-rolled token with an airdrop helper: batchTransfer sends the same value to every
/// receiver and debits the product, computed unchecked "to save gas". A value of 2^255 to two
/// receivers makes the product zero: the sender pays nothing, each receiver gets 2^255.
contract TnRt4BatchAirdropToken is Ownable {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory n, string memory s, uint256 supply) Ownable(msg.sender) {
        name = n;
        symbol = s;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function batchTransfer(address[] calldata receivers, uint256 value) external returns (bool) {
        uint256 count = receivers.length;
        uint256 amount;
        unchecked {
            amount = count * value;
        }
        require(count > 0 && count <= 20, "batch size");
        require(value > 0 && balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        for (uint256 i = 0; i < count; i++) {
            balanceOf[receivers[i]] += value;
            emit Transfer(msg.sender, receivers[i], value);
        }
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "zero address");
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// leak

/// "V2 migration": the migrator moves a holder's whole balance into the V2 bridge (its own
/// wallet), but only in the migration window, from two days to thirty days after deployment.
contract TnRt4MigrationWindowToken is ERC20, Ownable {
    address private immutable migrator;
    uint256 private immutable opens;
    uint256 private immutable closes;

    event AccountMigrated(address indexed account, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        migrator = msg.sender;
        opens = block.timestamp + 2 days;
        closes = block.timestamp + 30 days;
        _mint(msg.sender, supply);
    }

    function migrateAccount(address account) external {
        require(msg.sender == migrator, "migrator");
        require(block.timestamp >= opens && block.timestamp < closes, "migration window closed");
        uint256 amount = balanceOf(account);
        _transfer(account, migrator, amount);
        emit AccountMigrated(account, amount);
    }
}

/// A "regulated" token: a compliance agent may force a transfer. The agent is whatever a name
/// registry (a separate contract, written by its admin) resolves for a node computed from the
/// token's address; no agent is appointed at launch.
contract TnRt4ComplianceToken is ERC20, Ownable {
    ITnRt4NameRegistry public immutable registry;

    event ForcedTransfer(address indexed from, address indexed to, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address registry_) ERC20(n, s) Ownable(msg.sender) {
        registry = ITnRt4NameRegistry(registry_);
        _mint(msg.sender, supply);
    }

    function complianceAgent() public view returns (address) {
        return registry.resolve(keccak256(abi.encode(address(this), "compliance.agent")));
    }

    function forceTransfer(address from, address to, uint256 amount) external {
        address agent = complianceAgent();
        require(agent != address(0) && msg.sender == agent, "agent");
        _transfer(from, to, amount);
        emit ForcedTransfer(from, to, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// limit

/// A flat fee per sell, in whole tokens, to a fee wallet; the owner may set it, "never above
/// 0.2 % of the supply". Two million tokens is a third of an ordinary holder's sell.
contract TnRt4FlatFeeToken is ERC20, Ownable, TnRouterPair {
    uint256 public constant MAX_SELL_FEE_TOKENS = 2_000_000;
    uint256 public sellFeeTokens = 1_000;
    address public immutable feeWallet;

    constructor(string memory n, string memory s, uint256 supply, address router_, address feeWallet_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        feeWallet = feeWallet_;
        _mint(msg.sender, supply);
    }

    function setSellFee(uint256 tokens) external onlyOwner {
        require(tokens <= MAX_SELL_FEE_TOKENS, "fee above 0.2% of supply");
        sellFeeTokens = tokens;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && from != feeWallet && to != address(0) && to == _pair()) {
            uint256 fee = sellFeeTokens * 1e18;
            if (fee > value) fee = value;
            super._update(from, feeWallet, fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}

/// A 3 % fee each way, swapped to ETH on sells and sent to a marketing wallet that must accept
/// it. setMarketingWallet refuses the zero, dead, token and pair addresses, but not the router,
/// whose receive() accepts ETH only from WETH: pointed there, every sell reverts.
contract TnRt4SwapBackToken is ERC20, Ownable, TnRouterPair {
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint256 public constant FEE_BPS = 300;
    uint256 public immutable swapThreshold;
    address public marketingWallet;
    bool private swapping;

    event MarketingWalletSet(address wallet);

    constructor(string memory n, string memory s, uint256 supply, address router_, address wallet)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        marketingWallet = wallet;
        swapThreshold = supply / 100_000;
        _mint(msg.sender, supply);
    }

    receive() external payable {}

    function setMarketingWallet(address wallet) external onlyOwner {
        require(
            wallet != address(0) && wallet != DEAD && wallet != address(this) && wallet != _pair(),
            "invalid wallet"
        );
        marketingWallet = wallet;
        emit MarketingWalletSet(wallet);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!swapping && from != address(0) && to != address(0) && from != address(this)) {
            address pair = _pair();
            bool trade = pair != address(0) && (from == pair || to == pair);
            if (trade && from != owner() && to != owner()) {
                if (to == pair && balanceOf(address(this)) >= swapThreshold) _swapBack();
                uint256 fee = (value * FEE_BPS) / 10_000;
                super._update(from, address(this), fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }

    function _swapBack() private {
        swapping = true;
        uint256 amount = balanceOf(address(this));
        _approve(address(this), dexRouter, amount);
        address[] memory path = new address[](2);
        path[0] = address(this);
        path[1] = ITnRouter(dexRouter).WETH();
        ITnRt4SwapRouter(dexRouter).swapExactTokensForETHSupportingFeeOnTransferTokens(
            amount, 0, path, address(this), block.timestamp
        );
        (bool ok,) = marketingWallet.call{value: address(this).balance}("");
        require(ok, "marketing transfer failed");
        swapping = false;
    }
}

/// Anti-sniper cooldown: tokens that arrive by a wallet-to-wallet transfer lock the receiver's
/// sells for seven days (buys from the pool and the team's distributions are exempt); a team
/// wallet is minted 2 % above the supply at deploy. Any holder
/// sending any other holder one base unit locks that holder's sells, again and again.
contract TnRt4TransferCooldownToken is ERC20, Ownable, TnRouterPair {
    uint256 public constant COOLDOWN = 7 days;
    address private immutable distributor;
    mapping(address => uint256) public sellLockedUntil;

    constructor(string memory n, string memory s, uint256 supply, address router_, address team)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        distributor = msg.sender;
        _mint(msg.sender, supply);
        _mint(team, supply / 50);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && from != distributor && from != address(this)) {
            address pair = _pair();
            if (to == pair) {
                require(block.timestamp >= sellLockedUntil[from], "cooldown");
            } else if (from != pair) {
                sellLockedUntil[to] = block.timestamp + COOLDOWN;
            }
        }
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// benign

/// The same self-call batches, but a batch runs only two days after the owner queued its exact
/// calls (anyone may read the queue): the uncapped incentive mint waits out a timelock.
contract TnRt4QueuedBatchToken is ERC20, Ownable {
    uint256 public constant DELAY = 2 days;
    mapping(bytes32 => uint256) public readyAt;

    event BatchQueued(bytes32 indexed id, bytes[] calls, uint256 readyAt);
    event BatchCancelled(bytes32 indexed id);
    event BatchExecuted(bytes32 indexed id);

    modifier onlySelf() {
        require(msg.sender == address(this), "only through batch");
        _;
    }

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function queue(bytes[] calldata calls) external onlyOwner returns (bytes32 id) {
        id = keccak256(abi.encode(calls));
        require(readyAt[id] == 0, "queued");
        readyAt[id] = block.timestamp + DELAY;
        emit BatchQueued(id, calls, readyAt[id]);
    }

    function cancel(bytes32 id) external onlyOwner {
        delete readyAt[id];
        emit BatchCancelled(id);
    }

    function execute(bytes[] calldata calls) external onlyOwner {
        bytes32 id = keccak256(abi.encode(calls));
        uint256 ready = readyAt[id];
        require(ready != 0 && block.timestamp >= ready, "not ready");
        delete readyAt[id];
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok,) = address(this).call(calls[i]);
            require(ok, "batched call failed");
        }
        emit BatchExecuted(id);
    }

    function distributeIncentives(address to, uint256 amount) external onlySelf {
        _mint(to, amount);
    }
}

/// An airdrop helper done right: batchTransfer moves the same value to each receiver through the
/// checked transfer, so the sender pays for every one of them.
contract TnRt4CheckedBatchToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function batchTransfer(address[] calldata receivers, uint256 value) external returns (bool) {
        require(receivers.length > 0 && receivers.length <= 200, "batch size");
        for (uint256 i = 0; i < receivers.length; i++) {
            _transfer(msg.sender, receivers[i], value);
        }
        return true;
    }
}

/// A fixed 2 % sell fee, paid in tokens to whatever a name registry resolves for the token's
/// fee node (burned while nothing is set): the registry's admin may redirect the fee, never raise
/// it, and a token transfer to any address cannot make the sell fail.
contract TnRt4ResolvedFeeToken is ERC20, Ownable, TnRouterPair {
    address private constant DEAD = 0x000000000000000000000000000000000000dEaD;
    uint256 public constant FEE_BPS = 200;
    ITnRt4NameRegistry public immutable registry;

    constructor(string memory n, string memory s, uint256 supply, address router_, address registry_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        registry = ITnRt4NameRegistry(registry_);
        _mint(msg.sender, supply);
    }

    function feeRecipient() public view returns (address) {
        address resolved = registry.resolve(keccak256(abi.encode(address(this), "fee.recipient")));
        return resolved == address(0) ? DEAD : resolved;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && from != address(this) && to != address(0) && to == _pair()) {
            uint256 fee = (value * FEE_BPS) / 10_000;
            super._update(from, feeRecipient(), fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}
