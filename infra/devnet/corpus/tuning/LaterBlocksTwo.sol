// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tokens written during vigil-risk/23 by the model's authors from the attacks its second reviewer
// made on the mended later-block round (each kept as a token, so it stays a test). Scams: a council
// (a wallet passed to the constructor) stages, a keeper (the deployer) applies in a later block; the
// owner renounces. Honest: an owner's switch starts a clock, and an hour on a sell buys back or
// burns LP (which a sell measured as the pair's balance growth read as a 100 % tax).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

abstract contract TnLbCouncilBase is ERC20, Ownable {
    address internal council;
    address internal keeper;

    constructor(string memory n, string memory s, uint256 supply, address council_) ERC20(n, s) Ownable(msg.sender) {
        council = council_;
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }
}

/// An execution window (as Compound's timelock has a grace period): executable from a minute to
/// six hours after the proposal.
contract TnLbWindowBudget is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedAt;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedAt = block.timestamp;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0) return;
        require(block.timestamp >= proposedAt + 60, "too early");
        require(block.timestamp <= proposedAt + 6 hours, "stale proposal");
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// The clock must move as a chain's does: at most 30 s a block since the proposal.
contract TnLbClockRateBudget is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedAt;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedAt = block.timestamp;
        proposedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        if (block.timestamp - proposedAt > (block.number - proposedBlock) * 30) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// Proposals are numbered (Governor-style): executeBudget(proposalId).
contract TnLbProposalIdBudget is TnLbCouncilBase {
    struct Proposal {
        uint256 amount;
        uint256 proposedBlock;
        bool done;
    }
    Proposal[] private proposals;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external returns (uint256 id) {
        require(msg.sender == council, "council");
        proposals.push(Proposal(amount, block.number, false));
        id = proposals.length - 1;
    }

    function executeBudget(uint256 id) external {
        require(msg.sender == keeper, "keeper");
        require(id < proposals.length, "no such proposal");
        Proposal storage p = proposals[id];
        require(!p.done && block.number > p.proposedBlock, "not executable");
        p.done = true;
        _mint(council, p.amount);
    }
}

/// Inflation proposed in percent of the supply (uint16, at most 1,000 %).
contract TnLbPercentBudget is TnLbCouncilBase {
    uint256 private pendingPercent;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeInflation(uint16 percent) external {
        require(msg.sender == council, "council");
        require(percent <= 1000, "too much");
        pendingPercent = percent;
        proposedBlock = block.number;
    }

    function executeInflation() external {
        require(msg.sender == keeper, "keeper");
        if (pendingPercent == 0 || block.number <= proposedBlock) return;
        uint256 amount = (totalSupply() * pendingPercent) / 100;
        pendingPercent = 0;
        _mint(council, amount);
    }
}

/// Two staging calls by the council (a recipient, then an amount), both needed.
contract TnLbTwoSetterBudget is TnLbCouncilBase {
    address private recipient;
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function setRecipient(address to) external {
        require(msg.sender == council, "council");
        recipient = to;
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
        _mint(recipient, amount);
    }
}

/// Three steps: the council proposes, the keeper confirms in a later block, and the keeper
/// executes in a block after the confirmation.
contract TnLbConfirmBudget is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedBlock;
    uint256 private confirmedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
        confirmedBlock = 0;
    }

    function confirmBudget() external {
        require(msg.sender == keeper, "keeper");
        require(pendingBudget != 0 && block.number > proposedBlock, "nothing to confirm");
        confirmedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || confirmedBlock == 0 || block.number <= confirmedBlock) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// The apply refuses a block with no base fee (every post-London chain has one).
contract TnLbBaseFeeBudget is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        if (block.basefee == 0) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// The apply refuses a block whose prevrandao is zero (every proof-of-stake chain has one).
contract TnLbRandaoBudget is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedBlock;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        if (block.prevrandao == 0) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}

/// The council can withdraw its proposal (and the withdrawal is logged, so it writes): sent after
/// the proposal, it undoes it.
contract TnLbCancelMasked is TnLbCouncilBase {
    uint256 private pendingBudget;
    uint256 private proposedBlock;
    uint256 private cancellations;

    constructor(string memory n, string memory s, uint256 supply, address c) TnLbCouncilBase(n, s, supply, c) {}

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pendingBudget = amount;
        proposedBlock = block.number;
    }

    function cancelBudget() external {
        require(msg.sender == council, "council");
        pendingBudget = 0;
        cancellations += 1;
    }

    function executeBudget() external {
        require(msg.sender == keeper, "keeper");
        if (pendingBudget == 0 || block.number <= proposedBlock) return;
        uint256 amount = pendingBudget;
        pendingBudget = 0;
        _mint(council, amount);
    }
}


interface TnLbPairLike {
    function sync() external;
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
    function getReserves() external view returns (uint112, uint112, uint32);
    function token0() external view returns (address);
    function token1() external view returns (address);
}

interface TnLbWethLike {
    function deposit() external payable;
    function transfer(address to, uint256 amount) external returns (bool);
}

/// The "auto LP burn" template (2022-23 ERC-20s): once the owner switches it on, the first sell
/// an hour after the last burn burns 0.25 % of the pool's tokens and syncs the pair (the price goes
/// up; the LP is burned). Switching it on starts the clock.
contract TnLbHonestLpBurnSwitch is ERC20, Ownable {
    address public pair;
    bool public lpBurnEnabled;
    uint256 public lastLpBurnTime;
    uint256 public constant LP_BURN_FREQUENCY = 3600;
    uint256 public constant PERCENT_FOR_LP_BURN = 25; // of 10,000

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    // Set once at launch, as a router-made pair is in the templates (immutable there).
    function setPair(address pair_) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = pair_;
    }

    function setAutoLpBurn(bool enabled) external onlyOwner {
        lpBurnEnabled = enabled;
        if (enabled) lastLpBurnTime = block.timestamp;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && pair != address(0) && lpBurnEnabled && block.timestamp >= lastLpBurnTime + LP_BURN_FREQUENCY) {
            lastLpBurnTime = block.timestamp;
            uint256 burn = (balanceOf(pair) * PERCENT_FOR_LP_BURN) / 10_000;
            if (burn > 0) {
                super._update(pair, address(0xdead), burn);
                TnLbPairLike(pair).sync();
            }
        }
        super._update(from, to, value);
    }
}

/// Buyback and burn: the contract's ETH (tax proceeds; here a grant at launch) buys tokens from
/// the pool at most once an hour, on a sell, once the owner switches it on (which starts the clock).
contract TnLbHonestBuybackSwitch is ERC20, Ownable {
    address public pair;
    bool public buybackEnabled;
    uint256 public lastBuyback;
    uint256 public constant BUYBACK_INTERVAL = 3600;
    uint256 public constant BUYBACK_WEI = 0.5 ether;
    bool private inBuyback;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    receive() external payable {}

    /// Tax proceeds, paid in.
    function fund() external payable {}

    // Set once at launch, as a router-made pair is in the templates (immutable there).
    function setPair(address pair_) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = pair_;
    }

    function setBuyback(bool enabled) external onlyOwner {
        buybackEnabled = enabled;
        if (enabled) lastBuyback = block.timestamp;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (
            to == pair && pair != address(0) && !inBuyback && buybackEnabled &&
            block.timestamp >= lastBuyback + BUYBACK_INTERVAL && address(this).balance >= BUYBACK_WEI
        ) {
            lastBuyback = block.timestamp;
            inBuyback = true;
            _buyback();
            inBuyback = false;
        }
        super._update(from, to, value);
    }

    function _buyback() private {
        TnLbPairLike p = TnLbPairLike(pair);
        address t0 = p.token0();
        address weth = t0 == address(this) ? p.token1() : t0;
        (uint112 r0, uint112 r1, ) = p.getReserves();
        (uint256 rToken, uint256 rWeth) = t0 == address(this) ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 inWithFee = BUYBACK_WEI * 997;
        uint256 out = (inWithFee * rToken) / (rWeth * 1000 + inWithFee);
        TnLbWethLike(weth).deposit{value: BUYBACK_WEI}();
        TnLbWethLike(weth).transfer(pair, BUYBACK_WEI);
        (uint256 a0, uint256 a1) = t0 == address(this) ? (out, uint256(0)) : (uint256(0), out);
        p.swap(a0, a1, address(0xdead), "");
    }
}

/// The LP-burn template as shipped, on from launch, every two hours.
contract TnLbHonestLpBurnClock is ERC20, Ownable {
    address public pair;
    uint256 public lastLpBurnTime;
    uint256 public constant LP_BURN_FREQUENCY = 7200;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
        lastLpBurnTime = block.timestamp;
    }

    // Set once at launch, as a router-made pair is in the templates (immutable there).
    function setPair(address pair_) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && pair != address(0) && block.timestamp >= lastLpBurnTime + LP_BURN_FREQUENCY) {
            lastLpBurnTime = block.timestamp;
            uint256 burn = (balanceOf(pair) * 25) / 10_000;
            if (burn > 0) {
                super._update(pair, address(0xdead), burn);
                TnLbPairLike(pair).sync();
            }
        }
        super._update(from, to, value);
    }
}
