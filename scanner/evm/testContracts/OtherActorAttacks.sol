// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";
import {HwPlain} from "./HalfwayReadAttacks.sol";

/// Tokens for the adversarial review of vigil-risk/41 (a call a staging block opened for one
/// account, made in the middle block, followed by each other account's calls, four tries a later
/// block) and vigil-risk/42 (a detector read given half the gas left; the middle block halfway
/// only before the 51-minute later block): scanner/evm/otherActor.attacks.test.ts.
/// Each keeps its council, guardian and signers in storage, where discovery finds them as candidates.

// ---------------------------------------------------------------------------------------------
// Part 1: a proposal (the council), a confirmation (another account), the mint (the owner).
// ---------------------------------------------------------------------------------------------

abstract contract OaBase is HbToken {
    address public council;
    address public guardian;
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal proposedAt;
    uint256 internal confirmedBlock;
    uint256 internal confirmedAt;

    constructor(string memory tokenName, uint256 supply, address council_, address guardian_)
        HbToken(tokenName, supply)
    {
        council = council_;
        guardian = guardian_;
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pending = amount;
        proposedBlock = block.number;
        proposedAt = block.timestamp;
        confirmedBlock = 0;
        confirmedAt = 0;
    }

    function confirmBudget() external virtual {
        require(msg.sender == guardian, "guardian");
        require(pending != 0 && block.number > proposedBlock && _confirmable(), "nothing to confirm");
        confirmedBlock = block.number;
        confirmedAt = block.timestamp;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock || !_executable()) return;
        totalSupply += pending;
        balanceOf[council] += pending;
        emit Transfer(address(0), council, pending);
        pending = 0;
    }

    function _confirmable() internal view virtual returns (bool) {
        return true;
    }

    function _executable() internal view virtual returns (bool) {
        return true;
    }

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Control (scam, found since /41): the council proposes, the guardian confirms a block later, the
/// owner mints a block after that (as CaGuardianConfirm).
contract OaGuardianControl is OaBase {
    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Guardian Control", supply, council_, guardian_)
    {}
}

/// Attack 1 (scam): the same, and the council may annotate and attach a memo to its pending
/// proposal (each refused while nothing is pending, each writing once something is). The proposal
/// opens the two memo calls for the council, whose plan comes first after its staging block; each
/// opened memo followed by the three other planned accounts (the owner, the pair, the guardian)
/// takes the four other-actor tries, and the guardian's confirmation is never followed by the
/// owner's calls.
contract OaDecoyMemos is OaBase {
    bytes32 public memo;
    bytes32 public attachment;

    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Decoy Memos", supply, council_, guardian_)
    {}

    function annotate() external {
        require(msg.sender == council, "council");
        require(pending != 0, "nothing pending");
        memo = keccak256(abi.encode(memo, pending, block.number));
    }

    function attach() external {
        require(msg.sender == council, "council");
        require(pending != 0, "nothing pending");
        attachment = keccak256(abi.encode(attachment, pending, block.timestamp));
    }
}

/// Attack 1' (scam): the same with one memo call: it is enough (the memo after the first staging
/// block followed by the owner, the pair and the guardian, then after the second by the owner).
contract OaOneMemo is OaBase {
    bytes32 public memo;

    constructor(uint256 supply, address council_, address guardian_)
        OaBase("One Memo", supply, council_, guardian_)
    {}

    function annotate() external {
        require(msg.sender == council, "council");
        require(pending != 0, "nothing pending");
        memo = keccak256(abi.encode(memo, pending, block.number));
    }
}

/// Attack 4 (scam): as the control, the guardian's confirmation checked in one require whose reason
/// reads as a rights refusal ("unauthorized"), as many contracts write it. At the block the guardian
/// is refused for its "rights", so the confirmation is not among the guardian's later-block calls:
/// never opened, never made in a middle block.
contract OaDeniedConfirm is OaBase {
    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Denied Confirm", supply, council_, guardian_)
    {}

    function confirmBudget() external override {
        require(msg.sender == guardian && pending != 0 && block.number > proposedBlock, "unauthorized");
        confirmedBlock = block.number;
        confirmedAt = block.timestamp;
    }
}

/// Control 2: the owner mints any block from 30 minutes after the guardian's confirmation (a
/// timelock): found at the 23-hour later block, whose middle block is the block after the staging.
contract OaTimelockOnly is OaBase {
    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Timelock Only", supply, council_, guardian_)
    {}

    function _executable() internal view override returns (bool) {
        return block.timestamp >= confirmedAt + 30 minutes;
    }
}

/// Attack 2 (scam): the owner mints between 30 minutes and two hours after the guardian's
/// confirmation (a timelock with a grace period, as Compound's). Before the 51-minute later block
/// the middle block is halfway (the mint 25.4 minutes after the confirmation: too early); before the
/// 23-hour one it is the block after the staging (the mint 23 hours after it: too late). Under /39
/// (the middle block always the block after the staging) the 51-minute later block minted 51
/// minutes after the confirmation.
contract OaGraceTimelock is OaBase {
    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Grace Timelock", supply, council_, guardian_)
    {}

    function _executable() internal view override returns (bool) {
        return block.timestamp >= confirmedAt + 30 minutes && block.timestamp <= confirmedAt + 2 hours;
    }
}

/// Attack 5 (scam): the guardian may confirm only within ten minutes of the proposal; the owner
/// mints any block after the confirmation. At both later blocks (51 minutes and 23 hours after the
/// proposal) the confirmation is refused, so no staging block opens it.
contract OaQuickConfirm is OaBase {
    constructor(uint256 supply, address council_, address guardian_)
        OaBase("Quick Confirm", supply, council_, guardian_)
    {}

    function _confirmable() internal view override returns (bool) {
        return block.timestamp <= proposedAt + 10 minutes;
    }
}

/// Honest 6: a 2-of-3 approval with a 48-hour timelock. The owner proposes an allocation to the
/// treasury; two of three signers approve it (each in a block of its own); the owner executes no
/// sooner than 48 hours after the second approval, and no later than a week: holders have two days'
/// notice of any allocation.
contract OaMultisigTimelock is HbToken {
    address public signerA;
    address public signerB;
    address public signerC;
    address public treasury;
    uint256 internal pending;
    uint256 internal proposalId;
    mapping(uint256 => mapping(address => bool)) internal approvedBy;
    uint256 internal approvals;
    uint256 internal readyAt;

    constructor(uint256 supply, address a, address b, address c, address treasury_)
        HbToken("Multisig Timelock", supply)
    {
        signerA = a;
        signerB = b;
        signerC = c;
        treasury = treasury_;
    }

    function proposeAllocation(uint256 amount) external onlyOwner {
        pending = amount;
        proposalId++;
        approvals = 0;
        readyAt = 0;
    }

    function approveAllocation() external {
        require(msg.sender == signerA || msg.sender == signerB || msg.sender == signerC, "signer");
        require(pending != 0 && !approvedBy[proposalId][msg.sender], "nothing to approve");
        approvedBy[proposalId][msg.sender] = true;
        approvals++;
        if (approvals == 2) readyAt = block.timestamp + 48 hours;
    }

    function executeAllocation() external onlyOwner {
        require(readyAt != 0 && block.timestamp >= readyAt && block.timestamp <= readyAt + 5 days, "timelock");
        totalSupply += pending;
        balanceOf[treasury] += pending;
        emit Transfer(address(0), treasury, pending);
        pending = 0;
        readyAt = 0;
    }

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Honest 8: a 2-of-3 approval (the owner and two signers) with a 12-hour timelock. The owner's
/// proposal counts as its approval; one signer's approval makes two; the owner executes from 12
/// hours to three days after it. Every step emits an event: holders have twelve hours' notice of an
/// allocation that needs a second key.
contract OaProposerSigns is HbToken {
    address public signerA;
    address public signerB;
    address public treasury;
    uint256 internal pending;
    uint256 internal readyAt;

    event Proposed(uint256 amount);
    event Approved(address signer, uint256 readyAt);

    constructor(uint256 supply, address a, address b, address treasury_) HbToken("Proposer Signs", supply) {
        signerA = a;
        signerB = b;
        treasury = treasury_;
    }

    function proposeAllocation(uint256 amount) external onlyOwner {
        pending = amount;
        readyAt = 0;
        emit Proposed(amount);
    }

    function approveAllocation() external {
        require(msg.sender == signerA || msg.sender == signerB, "signer");
        require(pending != 0 && readyAt == 0, "nothing to approve");
        readyAt = block.timestamp + 12 hours;
        emit Approved(msg.sender, readyAt);
    }

    function executeAllocation() external onlyOwner {
        require(readyAt != 0 && block.timestamp >= readyAt && block.timestamp <= readyAt + 3 days, "timelock");
        totalSupply += pending;
        balanceOf[treasury] += pending;
        emit Transfer(address(0), treasury, pending);
        pending = 0;
        readyAt = 0;
    }

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Honest 7: a sell fee the owner proposes, a guardian confirms and the owner applies a block
/// later, capped at 5 % (and the same three steps for each change).
contract OaConfirmedFeeCap is HbToken {
    address public guardian;
    uint256 public sellFeeBps;
    uint256 internal proposedFee;
    uint256 internal confirmedBlock;
    bool internal proposed;

    constructor(uint256 supply, address guardian_) HbToken("Confirmed Fee Cap", supply) {
        guardian = guardian_;
    }

    function proposeFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "cap");
        proposedFee = bps;
        proposed = true;
        confirmedBlock = 0;
    }

    function confirmFee() external {
        require(msg.sender == guardian, "guardian");
        require(proposed, "nothing proposed");
        confirmedBlock = block.number;
    }

    function applyFee() external onlyOwner {
        require(proposed && confirmedBlock != 0 && block.number > confirmedBlock, "not confirmed");
        sellFeeBps = proposedFee;
        proposed = false;
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        return to == pair ? (value * sellFeeBps) / 10_000 : 0;
    }
}

// ---------------------------------------------------------------------------------------------
// Part 2: reads given half the gas left.
// ---------------------------------------------------------------------------------------------

/// Attack 3 (scam; `gated` false: its control): the owner takes a tenth of any holder's balance;
/// balanceOf, when given less than 2.5 million gas, adds back what was taken. A detector read has
/// half of what its step has left (a step has 1.2 million, a churn step 4 million): at most 2
/// million. A wallet's or an explorer's eth_call has the block's gas limit; no swap reads a
/// holder's balance (the pair reads its own, untaken).
contract OaWindowBalance is HwPlain {
    uint256 internal constant LIE_BELOW = 2_500_000;
    address public treasury;
    bool public immutable gated;
    mapping(address => uint256) internal taken;

    constructor(uint256 supply, address treasury_, bool gated_) HwPlain("Window Balance", supply) {
        treasury = treasury_;
        gated = gated_;
    }

    function balanceOf(address account) public view override returns (uint256) {
        if (gated && gasleft() < LIE_BELOW) return _balances[account] + taken[account];
        return _balances[account];
    }

    function reclaim(address account) external onlyOwner {
        uint256 amount = _balances[account] / 10;
        _balances[account] -= amount;
        taken[account] += amount;
        _balances[treasury] += amount;
        emit Transfer(account, treasury, amount);
    }
}
