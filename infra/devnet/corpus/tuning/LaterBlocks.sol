// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tokens written during vigil-risk/23 by the model's authors from the attacks its reviewer made on
// the later-block round (each attack kept as a token, so it stays a test). Unless said otherwise a
// council (a wallet passed to the constructor, kept in storage) stages a budget and a keeper (the
// deployer) applies it in a later block; the owner renounces at launch. Three honest tokens apply
// in a later block too and must stay unflagged.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// A "sane" budget: at most ten times the supply (an address-sized word is refused, and zero or
/// one is a budget of nothing).
contract TnLbBandBudget is ERC20, Ownable {
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
        require(amount <= totalSupply() * 10, "budget too large");
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

/// The textbook queue, recipient first: queueMint(to, amount), then executeMint() a block on.
contract TnLbQueueMintTo is ERC20, Ownable {
    address private council;
    address private keeper;
    address private queuedTo;
    uint256 private queuedAmount;
    uint256 private queuedBlock;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function queueMint(address to, uint256 amount) external {
        require(msg.sender == council, "council");
        queuedTo = to;
        queuedAmount = amount;
        queuedBlock = block.number;
    }

    function executeMint() external {
        require(msg.sender == keeper, "keeper");
        if (queuedAmount == 0 || block.number <= queuedBlock) return;
        uint256 amount = queuedAmount;
        queuedAmount = 0;
        _mint(queuedTo, amount);
    }
}

/// The apply function writes a heartbeat whenever it is called, so it never does nothing.
contract TnLbPokedBudget is ERC20, Ownable {
    address private council;
    address private keeper;
    uint256 private pendingBudget;
    uint256 private proposedBlock;
    uint256 public lastRun;

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
        lastRun = block.number;
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// Two hours' notice (less than the day a timelock must give).
contract TnLbTwoHourBudget is ERC20, Ownable {
    address private council;
    address private keeper;
    uint256 private pendingBudget;
    uint256 private proposedAt;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedAt = block.timestamp;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.timestamp < proposedAt + 2 hours) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// 301 blocks' notice (an hour and twelve seconds on Ethereum, 15 minutes on BSC): further than
/// a node lets one simulation reach (256 blocks).
contract TnLbBlockDelayBudget is ERC20, Ownable {
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
        if (pendingBudget == 0 || block.number <= proposedBlock + 300) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// A fee change scheduled by a manager, applied by the token itself from the next block on (no
/// apply function: the first transfer in a later block switches it on), up to 100 %.
contract TnLbLazyTax is ERC20, Ownable {
    address private manager;
    address private pair;
    uint256 private sellBps;
    uint256 private pendingBps;
    uint256 private effectiveBlock;

    constructor(string memory n, string memory s, uint256 supply, address manager_) ERC20(n, s) Ownable(msg.sender) {
        manager = manager_;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function scheduleFeeUpdate(uint256 bps) external {
        require(msg.sender == manager, "manager");
        pendingBps = bps;
        effectiveBlock = block.number + 1;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (effectiveBlock != 0 && block.number >= effectiveBlock) {
            sellBps = pendingBps;
            effectiveBlock = 0;
        }
        if (to == pair && sellBps > 0 && from != address(this)) {
            uint256 fee = (value * (sellBps > 10_000 ? 10_000 : sellBps)) / 10_000;
            super._update(from, manager, fee);
            super._update(from, to, value - fee);
            return;
        }
        super._update(from, to, value);
    }
}

/// The council budget among "governance" extras any holder may use, each writing storage from any
/// account: every account has staging calls of its own to crowd the council's out.
contract TnLbDecoyBudget is ERC20, Ownable {
    address private council;
    address private keeper;
    uint256 private pendingBudget;
    uint256 private proposedBlock;
    mapping(address => address) public referrerOf;
    mapping(address => address) public delegateOf;
    mapping(address => uint256) public voteOf;
    mapping(address => uint256) public registeredAt;
    mapping(address => uint256) public lockUntil;
    mapping(address => uint256) public pingCount;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function setReferrer(address ref) external { referrerOf[msg.sender] = ref; }
    function delegateVotes(address to) external { delegateOf[msg.sender] = to; }
    function vote(uint256 option) external { voteOf[msg.sender] = option; }
    function register() external { registeredAt[msg.sender] = block.timestamp; }
    function setLock(uint256 until) external { lockUntil[msg.sender] = until; }
    function ping() external { pingCount[msg.sender] += 1; }

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

/// The keeper is a wallet no slot, argument or PUSH20 names (two constants xored).
contract TnLbHiddenKeeper is ERC20, Ownable {
    uint256 private constant KA = 0x7298137df46d70b6383458786d188060eae4fb7cf0d2650e99a7e36def11b907;
    uint256 private constant KB = 0x7298137df46d70b638345878de4ab099af44791f8c28843a846aeaa05aed29e0;
    address private council;
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        _mint(msg.sender, supply);
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == address(uint160(KA ^ KB)), "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// One function both proposes and, called again in a later block, pays out.
contract TnLbSelfStaged is ERC20, Ownable {
    address private council;
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        _mint(msg.sender, supply);
    }

    function processBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        if (pendingBudget != 0 && block.number > proposedBlock) {
            uint256 due = pendingBudget;
            pendingBudget = 0;
            _mint(council, due);
            return;
        }
        pendingBudget = amount;
        proposedBlock = block.number;
    }
}

/// The keeper's call pays out only in a transaction that pays for gas (a simulation at a gas
/// price of zero sees nothing).
contract TnLbGasPriceBudget is ERC20, Ownable {
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
        if (pendingBudget == 0 || block.number <= proposedBlock || tx.gasprice == 0) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// Yield-token housekeeping that has nothing to do yet (reverting for want of rewards, not of
/// rights) beside the budget's ratification, which is refused at the block.
contract TnLbCrowdedSeconds is ERC20, Ownable {
    address private council;
    address private keeper;
    uint256 private pendingBudget;
    uint256 private proposedBlock;
    uint256 private rewards;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function harvest() external { require(rewards > 0, "nothing to harvest"); }
    function claimRewards() external { require(rewards > 0, "nothing to claim"); }
    function swapBack() external { require(rewards > 0, "nothing to swap"); }
    function distributeRewards() external { require(rewards > 0, "nothing to distribute"); }
    function rebase() external { require(rewards > 0, "nothing to rebase"); }
    function checkpoint() external { require(rewards > 0, "nothing to checkpoint"); }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function ratifyBudget() external {
        require(msg.sender == keeper, "keeper");
        require(pendingBudget != 0 && block.number > proposedBlock, "not ready");
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// Honest: an epoch rollover: the keeper opens an epoch, and from the next block on anyone mints the
/// epoch's emission (1 % of the supply at most) to the treasury.
contract TnLbHonestEpoch is ERC20, Ownable {
    address private keeper;
    address private treasury;
    uint256 private openedBlock;
    uint256 private pending;

    constructor(string memory n, string memory s, uint256 supply, address treasury_) ERC20(n, s) Ownable(msg.sender) {
        keeper = msg.sender;
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function openEpoch(uint256 emission) external {
        require(msg.sender == keeper, "keeper");
        uint256 cap = totalSupply() / 100;
        pending = emission > cap ? cap : emission;
        openedBlock = block.number;
    }

    function mintEpoch() external {
        require(pending != 0 && block.number > openedBlock, "not open");
        uint256 amount = pending;
        pending = 0;
        _mint(treasury, amount);
    }
}

/// Honest: a sell fee the owner queues and anyone applies an hour later, capped at 5 %.
contract TnLbHonestQueuedFee is ERC20, Ownable {
    address private pair;
    uint256 private feeBps;
    uint256 private queuedBps;
    uint256 private queuedAt;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner { pair = pair_; }

    function queueFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "cap");
        queuedBps = bps;
        queuedAt = block.timestamp;
    }

    function applyFee() external {
        require(queuedAt != 0 && block.timestamp >= queuedAt + 1 hours, "wait");
        feeBps = queuedBps;
        queuedAt = 0;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && feeBps > 0 && from != owner()) {
            uint256 fee = (value * feeBps) / 10_000;
            super._update(from, owner(), fee);
            super._update(from, to, value - fee);
            return;
        }
        super._update(from, to, value);
    }
}

/// Honest: a timelock counted in blocks: a day of Ethereum blocks (7,200).
contract TnLbHonestBlockTimelock is ERC20, Ownable {
    uint256 private queuedAmount;
    uint256 private queuedBlock;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function queueMint(uint256 amount) external onlyOwner {
        queuedAmount = amount;
        queuedBlock = block.number;
    }

    function executeMint() external onlyOwner {
        require(queuedAmount != 0 && block.number >= queuedBlock + 7_200, "timelock");
        _mint(owner(), queuedAmount);
        queuedAmount = 0;
    }
}
