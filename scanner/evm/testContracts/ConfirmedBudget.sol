// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";

/// Tokens for a power applied in a third block (scanner/evm/confirmedBudget.test.ts): a council
/// proposes a budget, the owner confirms it in a later block and mints it in a block after that.

abstract contract CbBudget is HbToken {
    address public council;
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal confirmedBlock;
    uint256 internal confirmedAt;

    constructor(string memory tokenName, uint256 supply, address council_) HbToken(tokenName, supply) {
        council = council_;
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pending = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external virtual onlyOwner {
        require(pending != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
        confirmedAt = block.timestamp;
    }

    function executeBudget() external onlyOwner {
        if (pending == 0 || confirmedBlock == 0 || block.number <= confirmedBlock || !_noticeServed()) return;
        totalSupply += pending;
        balanceOf[council] += pending;
        emit Transfer(address(0), council, pending);
        pending = 0;
    }

    function _noticeServed() internal view virtual returns (bool);

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Scam: the budget is minted in any block after its confirmation.
contract CbConfirmedBudget is CbBudget {
    constructor(uint256 supply, address council_) CbBudget("Confirmed Budget", supply, council_) {}

    function _noticeServed() internal pure override returns (bool) {
        return true;
    }
}

/// Honest: the same steps, but the mint waits two days after the confirmation (public notice).
contract CbNoticedBudget is CbBudget {
    constructor(uint256 supply, address council_) CbBudget("Noticed Budget", supply, council_) {}

    function _noticeServed() internal view override returns (bool) {
        return block.timestamp >= confirmedAt + 2 days;
    }
}

/// Scam: as CbConfirmedBudget, but a confirmation with nothing to confirm returns quietly instead
/// of reverting (it works at the pinned block, writing nothing).
contract CbQuietConfirmedBudget is CbBudget {
    constructor(uint256 supply, address council_) CbBudget("Quiet Confirmed Budget", supply, council_) {}

    function confirmBudget() external override onlyOwner {
        if (pending == 0 || block.number <= proposedBlock) return;
        confirmedBlock = block.number;
        confirmedAt = block.timestamp;
    }

    function _noticeServed() internal pure override returns (bool) {
        return true;
    }
}
