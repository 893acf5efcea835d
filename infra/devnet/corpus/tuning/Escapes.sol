// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tuning tokens written after the first held-out measurement, for the ways a power was known to
// slip past the probe: arguments in arrays and structs, an account that holds a power but is
// kept only in a mapping (set in the constructor, or by a call that emits nothing), and powers
// that take two calls (stage something, then apply it). Other names and hiding places than the
// held-out part, which stays unread.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

interface IEscPairFactory {
    function getPair(address a, address b) external view returns (address);
}

interface IEscRouter {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

abstract contract EscPairAware {
    address internal immutable dexRouter;

    constructor(address router_) {
        dexRouter = router_;
    }

    function _pair() internal view returns (address) {
        return IEscPairFactory(IEscRouter(dexRouter).factory()).getPair(address(this), IEscRouter(dexRouter).WETH());
    }
}

// ---------------------------------------------------------------- arguments in arrays and structs

/// `grantBatch` mints amounts to many wallets at once, for granters kept in a mapping (the deployer).
contract TnBatchGrantToken is ERC20, Ownable {
    mapping(address => bool) private granters;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        granters[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function grantBatch(address[] calldata to, uint256[] calldata amounts) external {
        require(granters[msg.sender], "granter");
        require(to.length == amounts.length, "length");
        for (uint256 i = 0; i < to.length; i++) _mint(to[i], amounts[i]);
    }
}

/// `dropTo` mints the same amount to a list of wallets, for a distributor named only in the
/// constructor's arguments and kept in a mapping (no slot, getter or event names it).
contract TnDropToken is ERC20, Ownable {
    mapping(address => uint256) private dropQuota;

    constructor(string memory n, string memory s, uint256 supply, address distributor) ERC20(n, s) Ownable(msg.sender) {
        dropQuota[distributor] = type(uint256).max;
        _mint(msg.sender, supply);
    }

    function dropTo(address[] calldata to, uint256 each) external {
        require(dropQuota[msg.sender] / (to.length == 0 ? 1 : to.length) >= each, "quota");
        for (uint256 i = 0; i < to.length; i++) _mint(to[i], each);
    }
}

/// `clear` burns from any account through an order struct with a deadline, for clearers set by a
/// call that emits nothing (sent once before the renounce).
contract TnClearingToken is ERC20, Ownable {
    struct Order {
        address account;
        uint256 amount;
        uint256 deadline;
    }

    mapping(address => bool) private clearers;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setClearer(address who, bool on) external onlyOwner {
        clearers[who] = on;
    }

    function clear(Order calldata order) external {
        require(clearers[msg.sender], "clearer");
        require(block.timestamp <= order.deadline, "expired");
        _burn(order.account, order.amount);
    }
}

/// `flagBatch` stops a list of wallets from sending, for a sentinel named only in the constructor's
/// arguments and kept in a mapping.
contract TnFlagBatchToken is ERC20, Ownable {
    mapping(address => bool) private sentinels;
    mapping(address => bool) private flagged;

    constructor(string memory n, string memory s, uint256 supply, address sentinel) ERC20(n, s) Ownable(msg.sender) {
        sentinels[sentinel] = true;
        _mint(msg.sender, supply);
    }

    function flagBatch(address[] calldata accounts, bool on) external {
        require(sentinels[msg.sender], "sentinel");
        for (uint256 i = 0; i < accounts.length; i++) flagged[accounts[i]] = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!flagged[from], "flagged");
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------- powers that take two calls

/// The minter admin (the deployer, in a later slot) names a minter, who may then mint any amount.
contract TnMinterRoleToken is ERC20, Ownable {
    uint256 public launchedAt;
    bool public frozen;
    address private minterAdmin;
    address private minter;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        minterAdmin = msg.sender;
        launchedAt = block.timestamp;
        _mint(msg.sender, supply);
    }

    function assignMinter(address who) external {
        require(msg.sender == minterAdmin, "admin");
        minter = who;
    }

    function issue(address to, uint256 amount) external {
        require(msg.sender == minter && minter != address(0), "minter");
        _mint(to, amount);
    }
}

/// A sell cap is staged, then committed: neither call alone changes what a holder can sell.
contract TnStagedCapToken is ERC20, Ownable, EscPairAware {
    uint256 private pendingCap = type(uint256).max;
    uint256 private sellCap = type(uint256).max;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        EscPairAware(router_)
    {
        _mint(msg.sender, supply);
    }

    function stageSellCap(uint256 value) external onlyOwner {
        pendingCap = value;
    }

    function commitRules() external onlyOwner {
        sellCap = pendingCap;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == _pair() && from != owner()) require(value <= sellCap, "cap");
        super._update(from, to, value);
    }
}

/// A recovery wallet (the deployer, in a mapping) schedules an account, then moves all it holds.
contract TnScheduledReclaimToken is ERC20, Ownable {
    mapping(address => bool) private recovery;
    address private scheduled;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        recovery[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function scheduleReclaim(address account) external {
        require(recovery[msg.sender], "recovery");
        scheduled = account;
    }

    function executeReclaim() external {
        require(recovery[msg.sender] && scheduled != address(0), "nothing scheduled");
        _transfer(scheduled, msg.sender, balanceOf(scheduled));
        scheduled = address(0);
    }
}

// ---------------------------------------------------------------- benign, with the same shapes

/// A fee is proposed, then applied; it starts at 3 % and can never exceed 5 %.
contract TnProposedFeeToken is ERC20, Ownable {
    uint256 public feeBps = 300;
    uint256 private proposedBps = 300;
    address private immutable treasury;

    constructor(string memory n, string memory s, uint256 supply, address treasury_) ERC20(n, s) Ownable(msg.sender) {
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function proposeFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "fee too high");
        proposedBps = bps;
    }

    function applyFee() external onlyOwner {
        feeBps = proposedBps;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || from == owner() || to == owner()) {
            super._update(from, to, value);
            return;
        }
        uint256 fee = (value * feeBps) / 10_000;
        super._update(from, treasury, fee);
        super._update(from, to, value - fee);
    }
}

/// Mints are queued, and can be executed only two days later.
contract TnTimelockedMintToken is ERC20, Ownable {
    uint256 private queuedAmount;
    uint256 private queuedAt;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function queueMint(uint256 amount) external onlyOwner {
        queuedAmount = amount;
        queuedAt = block.timestamp;
    }

    function executeMint() external onlyOwner {
        require(queuedAmount != 0 && block.timestamp >= queuedAt + 2 days, "timelock");
        _mint(owner(), queuedAmount);
        queuedAmount = 0;
    }
}

/// The owner airdrops from its own balance to a list of wallets.
contract TnTreasuryDropToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function airdrop(address[] calldata to, uint256 each) external onlyOwner {
        for (uint256 i = 0; i < to.length; i++) _transfer(msg.sender, to[i], each);
    }
}
