// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";

/// Tokens for the adversarial review of vigil-risk/40 (the middle block halfway to the later one;
/// the detector's reads capped at READ_GAS): scanner/evm/halfwayRead.attacks.test.ts.

// ---------------------------------------------------------------------------------------------
// Part 1: a proposal (the council), its confirmation (the owner), the mint (the owner).
// ---------------------------------------------------------------------------------------------

abstract contract HwBase is HbToken {
    address public council;
    uint256 internal pending;
    uint256 internal proposedBlock;
    uint256 internal proposedAt;
    uint256 internal confirmedBlock;
    uint256 internal confirmedAt;

    constructor(string memory tokenName, uint256 supply, address council_) HbToken(tokenName, supply) {
        council = council_;
    }

    function proposeBudget(uint256 amount) external {
        require(msg.sender == council, "council");
        pending = amount;
        proposedBlock = block.number;
        proposedAt = block.timestamp;
        confirmedBlock = 0;
        confirmedAt = 0;
    }

    function confirmBudget() external onlyOwner {
        require(pending != 0 && _confirmable(), "not now");
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
        return block.number > proposedBlock;
    }

    function _executable() internal view virtual returns (bool) {
        return true;
    }

    function _fee(address, address, uint256) internal pure override returns (uint256) {
        return 0;
    }
}

/// Control (scam, found): the confirmation any block after the proposal, the mint within forty
/// minutes of the confirmation (an "approval" that expires).
contract HwExpiringForty is HwBase {
    constructor(uint256 supply, address council_) HwBase("Expiring Forty", supply, council_) {}

    function _executable() internal view override returns (bool) {
        return block.timestamp <= confirmedAt + 40 minutes;
    }
}

/// Attack 1 (scam): the confirmation waits 150 blocks (30 minutes at 12 s) after the proposal.
contract HwBlockReview is HwBase {
    constructor(uint256 supply, address council_) HwBase("Block Review", supply, council_) {}

    function _confirmable() internal view override returns (bool) {
        return block.number >= proposedBlock + 150;
    }
}

/// Attack 2 (scam): the mint waits 130 blocks (26 minutes) after the confirmation.
contract HwBlockTimelock is HwBase {
    constructor(uint256 supply, address council_) HwBase("Block Timelock", supply, council_) {}

    function _executable() internal view override returns (bool) {
        return block.number >= confirmedBlock + 130;
    }
}

/// Attack 3 (scam): the confirmation only between 30 and 60 minutes after the proposal (a review
/// period, then a grace period), the mint any block after it.
contract HwConfirmWindow is HwBase {
    constructor(uint256 supply, address council_) HwBase("Confirm Window", supply, council_) {}

    function _confirmable() internal view override returns (bool) {
        return block.timestamp >= proposedAt + 30 minutes && block.timestamp <= proposedAt + 60 minutes;
    }
}

/// Attack 4 (scam): the mint within twenty minutes of the confirmation.
contract HwExpiringTwenty is HwBase {
    constructor(uint256 supply, address council_) HwBase("Expiring Twenty", supply, council_) {}

    function _executable() internal view override returns (bool) {
        return block.timestamp <= confirmedAt + 20 minutes;
    }
}

// ---------------------------------------------------------------------------------------------
// Part 2: reads.
// ---------------------------------------------------------------------------------------------

// The detector's cap on one read.
uint256 constant DETECTOR_READ_GAS = 200_000;

/// A plain token whose totalSupply and balanceOf a token below may override.
abstract contract HwPlain {
    string public name;
    string public symbol = "HW";
    uint8 public decimals = 18;
    uint256 internal _supply;
    mapping(address => uint256) internal _balances;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory tokenName, uint256 supply) {
        name = tokenName;
        owner = msg.sender;
        _supply = supply;
        _balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = newPair;
    }

    function totalSupply() public view virtual returns (uint256) {
        return _supply;
    }

    function balanceOf(address account) public view virtual returns (uint256) {
        return _balances[account];
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        _balances[from] -= value;
        _balances[to] += value;
        emit Transfer(from, to, value);
    }
}

/// Attack 5 (scam; control when `gated` is false): the owner mints at will to a treasury, and a
/// totalSupply read given no more than the detector's 200,000 gas answers the supply at launch.
/// Every wallet, explorer and eth_call (tens of millions of gas) sees the true supply; no swap
/// reads it.
contract HwGatedSupply is HwPlain {
    address public treasury;
    bool public immutable gated;
    uint256 internal immutable launchSupply;

    constructor(uint256 supply, address treasury_, bool gated_) HwPlain("Gated Supply", supply) {
        treasury = treasury_;
        gated = gated_;
        launchSupply = supply;
    }

    function totalSupply() public view override returns (uint256) {
        if (gated && gasleft() <= DETECTOR_READ_GAS) return launchSupply;
        return _supply;
    }

    function allocate(uint256 amount) external onlyOwner {
        _supply += amount;
        _balances[treasury] += amount;
        emit Transfer(address(0), treasury, amount);
    }
}

/// Attack 6 (scam; control when `gated` is false): the owner takes a tenth of any holder's balance
/// to a treasury, as often as it likes, and a balanceOf read given no more than 200,000 gas adds
/// back what was taken. A swap's pair reads its own balance with the swap's gas, so trading sees
/// true balances.
contract HwGatedBalance is HwPlain {
    address public treasury;
    bool public immutable gated;
    mapping(address => uint256) internal taken;

    constructor(uint256 supply, address treasury_, bool gated_) HwPlain("Gated Balance", supply) {
        treasury = treasury_;
        gated = gated_;
    }

    function balanceOf(address account) public view override returns (uint256) {
        if (gated && gasleft() <= DETECTOR_READ_GAS) return _balances[account] + taken[account];
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

/// Honest 7 (`maxTaxBps` 500): a reflection token (2 % of each trade shared among holders, the
/// owner's fee setter capped at 5 %) whose exchange and vesting wallets are excluded from the
/// reflections, as SafeMoon's forks do: every balanceOf of a holder walks the excluded list (three
/// cold storage reads a wallet), over 200,000 gas on a cold read with 32 of them.
/// Attack 9 (`maxTaxBps` 10,000, 20 excluded wallets): the same, the owner's fee setter uncapped
/// (a 100 % fee: the pair is paid two points of reflections at most).
contract HwReflection {
    string public name = "Honest Reflection";
    string public symbol = "HREF";
    uint8 public decimals = 18;
    uint256 private constant MAX = ~uint256(0);
    uint256 private immutable tTotal;
    uint256 private rTotal;
    mapping(address => uint256) private rOwned;
    mapping(address => uint256) private tOwned;
    mapping(address => bool) public isExcluded;
    address[] private excluded;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;
    uint256 public taxBps = 200;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    uint256 public immutable maxTaxBps;

    constructor(uint256 supply, uint256 excludedWallets, uint256 maxTaxBps_) {
        owner = msg.sender;
        maxTaxBps = maxTaxBps_;
        tTotal = supply;
        rTotal = MAX - (MAX % supply);
        uint256 rate = rTotal / supply;
        rOwned[msg.sender] = rTotal;
        emit Transfer(address(0), msg.sender, supply);
        uint256 share = supply / 2_000;
        for (uint256 i = 0; i < excludedWallets; i++) {
            address wallet = address(uint160(uint256(keccak256(abi.encode("hw.excluded", i)))));
            rOwned[msg.sender] -= share * rate;
            rOwned[wallet] = share * rate;
            tOwned[wallet] = share;
            isExcluded[wallet] = true;
            excluded.push(wallet);
            emit Transfer(msg.sender, wallet, share);
        }
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = newPair;
    }

    function setTaxBps(uint256 bps) external onlyOwner {
        require(bps <= maxTaxBps, "above the cap");
        taxBps = bps;
    }

    function totalSupply() external view returns (uint256) {
        return tTotal;
    }

    function balanceOf(address account) public view returns (uint256) {
        if (isExcluded[account]) return tOwned[account];
        return rOwned[account] / _rate();
    }

    function _rate() private view returns (uint256) {
        uint256 rSupply = rTotal;
        uint256 tSupply = tTotal;
        for (uint256 i = 0; i < excluded.length; i++) {
            address wallet = excluded[i];
            if (rOwned[wallet] > rSupply || tOwned[wallet] > tSupply) return rTotal / tTotal;
            rSupply -= rOwned[wallet];
            tSupply -= tOwned[wallet];
        }
        if (rSupply < rTotal / tTotal) return rTotal / tTotal;
        return rSupply / tSupply;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(balanceOf(from) >= value, "balance");
        uint256 fee = from == owner || to == owner ? 0 : (value * taxBps) / 10_000;
        // Two points of the fee are shared among holders, the rest is the owner's (marketing).
        uint256 reflected = fee < (value * 200) / 10_000 ? fee : (value * 200) / 10_000;
        uint256 rate = _rate();
        uint256 rValue = value * rate;
        rOwned[from] -= rValue;
        if (isExcluded[from]) tOwned[from] -= value;
        rOwned[to] += rValue - fee * rate;
        if (isExcluded[to]) tOwned[to] += value - fee;
        rOwned[owner] += (fee - reflected) * rate;
        rTotal -= reflected * rate;
        emit Transfer(from, to, value - fee);
        if (fee > reflected) emit Transfer(from, owner, fee - reflected);
    }
}

/// Honest 8: a capped emission on a fixed schedule (120 monthly epochs, 2 % of the supply an epoch
/// at most, once), whose totalSupply sums what each epoch minted: over 200,000 gas on a cold read.
/// The emission itself reads totalSupply for its cap.
contract HwEpochSupply is HwPlain {
    uint256 internal constant EPOCHS = 120;
    uint256 internal immutable start;
    uint256[EPOCHS] internal minted;

    constructor(uint256 supply) HwPlain("Epoch Supply", supply) {
        start = block.timestamp;
    }

    function totalSupply() public view override returns (uint256) {
        uint256 total = _supply;
        for (uint256 i = 0; i < EPOCHS; i++) total += minted[i];
        return total;
    }

    function emitEpoch() external onlyOwner {
        uint256 epoch = (block.timestamp - start) / 30 days;
        require(epoch < EPOCHS && minted[epoch] == 0, "emitted");
        uint256 amount = (totalSupply() * 2) / 100;
        minted[epoch] = amount;
        _balances[owner] += amount;
        emit Transfer(address(0), owner, amount);
    }
}
