// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";

/// Tokens for the adversarial review of vigil-risk/37's middle block (a proposal, its confirmation
/// in a block of its own, the power in a block after that): scanner/evm/confirmedBudget.attacks.test.ts.
/// Each keeps its council (and guardian) in storage, where discovery finds them as candidates.

abstract contract CaBase is HbToken {
    address public council;

    constructor(string memory tokenName, uint256 supply, address council_) HbToken(tokenName, supply) {
        council = council_;
    }

    modifier onlyCouncil() {
        require(msg.sender == council, "council");
        _;
    }

    function _mintTo(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Attack 1 (scam): the confirmation returns quietly when nothing is pending, after an "audit" of a
/// 64-entry ledger: at the pinned block it works, writes nothing, and costs more than 5,000 gas.
contract CaHeavyQuietConfirm is CaBase {
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;
    uint256[64] internal ledger;

    constructor(uint256 supply, address council_) CaBase("Heavy Quiet Confirm", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        uint256 audited;
        for (uint256 i; i < 64; i++) audited += ledger[i];
        if (audited != 0 || pending == 0 || block.number <= proposedBlock) return;
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Attack 2 (scam): a third account confirms. The council proposes, a guardian (another stored
/// address) confirms in a later block, the owner mints in a block after that.
contract CaGuardianConfirm is CaBase {
    address public guardian;
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;

    constructor(uint256 supply, address council_, address guardian_) CaBase("Guardian Confirm", supply, council_) {
        guardian = guardian_;
    }

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external {
        require(msg.sender == guardian, "guardian");
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Attack 3 (scam): the confirmation opens ten minutes after the proposal (a "review window"),
/// the mint any block after the confirmation: twenty minutes from proposal to mint.
contract CaDelayedConfirm is CaBase {
    uint256 internal pending;
    uint256 internal proposedAt;
    uint256 internal confirmedBlock;

    constructor(uint256 supply, address council_) CaBase("Delayed Confirm", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedAt = block.timestamp;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.timestamp >= proposedAt + 10 minutes, "in review");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Attack 4 (scam): two confirmations by the owner, each in a block after the one before, then
/// the mint in a block after the second.
contract CaTwoConfirmations is CaBase {
    uint256 internal pending;
    uint256 internal lastBlock;
    uint256 internal confirmations;

    constructor(uint256 supply, address council_) CaBase("Two Confirmations", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        lastBlock = block.number;
        confirmations = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.number > lastBlock && confirmations < 2, "nothing to confirm");
        lastBlock = block.number;
        confirmations++;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmations < 2 || block.number <= lastBlock) return;
        _mintTo(council, pending);
        pending = 0;
        confirmations = 0;
    }
}

/// Attack 5 (scam): the mint waits two blocks and half an hour after the confirmation (a short
/// "timelock" nobody can act on).
contract CaShortTimelock is CaBase {
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;
    uint256 internal confirmedAt;

    constructor(uint256 supply, address council_) CaBase("Short Timelock", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
        confirmedAt = block.timestamp;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number < confirmedBlock + 2) return;
        if (block.timestamp < confirmedAt + 30 minutes) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Attack 6 (scam): the proposal comes in two parts (the recipient, the amount), both needed for
/// the confirmation; the council also keeps sixteen memo fields it may write (more staging calls).
contract CaSplitProposal is CaBase {
    address internal recipient;
    uint256 internal amount;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;
    uint256[16] internal memo;

    constructor(uint256 supply, address council_) CaBase("Split Proposal", supply, council_) {}

    function proposeRecipient(address to) external onlyCouncil {
        recipient = to;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function proposeAmount(uint256 value) external onlyCouncil {
        amount = value;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(recipient != address(0) && amount != 0 && block.number > proposedBlock, "incomplete");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(recipient, amount);
        amount = 0;
    }

    function memo0(uint256 v) external onlyCouncil { memo[0] = v; }
    function memo1(uint256 v) external onlyCouncil { memo[1] = v; }
    function memo2(uint256 v) external onlyCouncil { memo[2] = v; }
    function memo3(uint256 v) external onlyCouncil { memo[3] = v; }
    function memo4(uint256 v) external onlyCouncil { memo[4] = v; }
    function memo5(uint256 v) external onlyCouncil { memo[5] = v; }
    function memo6(uint256 v) external onlyCouncil { memo[6] = v; }
    function memo7(uint256 v) external onlyCouncil { memo[7] = v; }
    function memo8(uint256 v) external onlyCouncil { memo[8] = v; }
    function memo9(uint256 v) external onlyCouncil { memo[9] = v; }
    function memo10(uint256 v) external onlyCouncil { memo[10] = v; }
    function memo11(uint256 v) external onlyCouncil { memo[11] = v; }
    function memo12(uint256 v) external onlyCouncil { memo[12] = v; }
    function memo13(uint256 v) external onlyCouncil { memo[13] = v; }
    function memo14(uint256 v) external onlyCouncil { memo[14] = v; }
    function memo15(uint256 v) external onlyCouncil { memo[15] = v; }
}

/// Honest 7: the mint waits two days after the proposal (its public notice), whenever the owner
/// confirmed it.
contract CaProposalNotice is CaBase {
    uint256 internal pending;
    uint256 internal proposedAt;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;

    constructor(uint256 supply, address council_) CaBase("Proposal Notice", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedAt = block.timestamp;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        if (block.timestamp < proposedAt + 2 days) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Honest 8: a capped emission: the budget is at most 2 % of the supply a proposal, confirmed and
/// minted in the blocks after it.
contract CaCappedEmission is CaBase {
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;

    constructor(uint256 supply, address council_) CaBase("Capped Emission", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        uint256 cap = totalSupply / 50;
        pending = amount > cap ? cap : amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Honest 9: a notice counted in blocks: the mint waits 7,200 blocks (about a day) after the
/// confirmation. The simulation's later block is 23 hours on but at most 255 blocks on.
contract CaBlockNotice is CaBase {
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;

    constructor(uint256 supply, address council_) CaBase("Block Notice", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil {
        pending = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number < confirmedBlock + 7_200) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Honest 10: a two-step ownership transfer (the owner nominates, the nominee accepts in a later
/// block) beside a capped emission (2 % a proposal) the owner mints a block after the council
/// proposes it: the new owner gets no more than the old one had.
contract CaTwoStepOwnership is CaBase {
    address public pendingOwner;
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal nominatedBlock;

    constructor(uint256 supply, address council_) CaBase("Two Step Ownership", supply, council_) {}

    function transferOwnership(address nominee) external onlyOwner {
        pendingOwner = nominee;
        nominatedBlock = block.number;
    }

    function acceptOwnership() external {
        require(msg.sender == pendingOwner && block.number > nominatedBlock, "not nominated");
        owner = pendingOwner;
        pendingOwner = address(0);
    }

    function proposeBudget(uint256 amount) external onlyCouncil {
        uint256 cap = totalSupply / 50;
        pending = amount > cap ? cap : amount;
        proposedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || block.number <= proposedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}

/// Attack 11 (scam): the confirmation names the proposal by an id the proposal returns (a hash of
/// its block and amount), which no argument shape gives.
contract CaIdConfirm is CaBase {
    uint256 internal pending;
    uint256 internal pendingId;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;

    event Proposed(uint256 id, uint256 amount);

    constructor(uint256 supply, address council_) CaBase("Id Confirm", supply, council_) {}

    function proposeBudget(uint256 amount) external onlyCouncil returns (uint256 id) {
        id = uint256(keccak256(abi.encode(block.number, amount)));
        pending = amount;
        pendingId = id;
        proposedBlock = block.number;
        confirmedBlock = 0;
        emit Proposed(id, amount);
    }

    function confirmBudget(uint256 id) external onlyOwner {
        require(pending != 0 && id == pendingId && block.number > proposedBlock, "unknown proposal");
        confirmedBlock = block.number;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        _mintTo(council, pending);
        pending = 0;
    }
}
