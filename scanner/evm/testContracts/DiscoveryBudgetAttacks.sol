// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Tokens for the adversarial review of power discovery's time budget (vigil-risk/55):
/// scanner/evm/discoveryBudget.attacks.test.ts.
abstract contract DxToken {
    string public name;
    string public symbol = "DX";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory tokenName, uint256 supply) {
        name = tokenName;
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    /// Once, after listing: the pool is then fixed.
    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = newPair;
    }

    function approve(address spender, uint256 value) external virtual returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal virtual {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mintToOwner(uint256 amount) internal {
        totalSupply += amount;
        balanceOf[owner] += amount;
        emit Transfer(address(0), owner, amount);
    }
}

/// Scam (attack 2): the owner doubles the supply, given a code only the comparison round (a trace of
/// the refused call) can find. Any other code is refused with a reason that is not about rights.
contract DxMagicMint is DxToken {
    constructor(uint256 supply) DxToken("Dx Magic Mint", supply) {}

    function adjust(uint256 code) external onlyOwner {
        require(code == 0x5eed0f5eed0f5eed0f5eed0f5eed0f5eed, "bad code");
        _mintToOwner(totalSupply);
    }
}

/// Scam (attack 3): the owner schedules a release in one block and mints the supply again in any
/// later block: only the later-block round (eth_simulateV1, the schedule staged in a block of its
/// own) shows it; in one block the release is refused.
contract DxLaterMint is DxToken {
    uint256 internal scheduledAt;

    constructor(uint256 supply) DxToken("Dx Later Mint", supply) {}

    function schedule() external onlyOwner {
        scheduledAt = block.number;
    }

    function release() external onlyOwner {
        require(scheduledAt != 0 && block.number > scheduledAt, "not yet");
        scheduledAt = 0;
        _mintToOwner(totalSupply);
    }
}

/// Honest (attack 1): a plain token (a fee setter capped at 5 %, settings nothing reads) with eleven
/// random-looking accounts kept in storage (ten candidates with the owner) and some thirty
/// functions: every candidate's functions are traced once before its first round
/// (argumentlessSelectors), ten traces a function, none of them gated by the time budget.
contract DxCrowd is DxToken {
    address public a1;
    address public a2;
    address public a3;
    address public a4;
    address public a5;
    address public a6;
    address public a7;
    address public a8;
    address public a9;
    address public a10;
    address public a11;
    uint256 public feeBps;
    uint256 public maxWallet;
    uint256 public cooldown;
    uint256 public launchedAt;
    mapping(address => bool) public excluded;

    constructor(uint256 supply, address[11] memory accounts) DxToken("Dx Crowd", supply) {
        a1 = accounts[0];
        a2 = accounts[1];
        a3 = accounts[2];
        a4 = accounts[3];
        a5 = accounts[4];
        a6 = accounts[5];
        a7 = accounts[6];
        a8 = accounts[7];
        a9 = accounts[8];
        a10 = accounts[9];
        a11 = accounts[10];
    }

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "cap");
        feeBps = bps;
    }

    function setMaxWallet(uint256 amount) external onlyOwner {
        maxWallet = amount;
    }

    function setCooldown(uint256 secondsApart) external onlyOwner {
        require(secondsApart <= 60, "cap");
        cooldown = secondsApart;
    }

    function setExcluded(address account, bool value) external onlyOwner {
        excluded[account] = value;
    }

    function markLaunch() external onlyOwner {
        launchedAt = block.timestamp;
    }
}

/// Scam (attack 4): heavyStep.attacks' HvGasBand at 6.5M (testContracts/HeavyStepAttacks.sol), its
/// fee setter under a name no list knows: a 3 % sell fee the owner may raise to 100 %, and an
/// approval that spins out of gas when given under 6.5M (any caller but the owner; a wallet's
/// estimate finds the band). No probe step ever has 6.5M: the holder's approval, and with it every
/// step, runs out whole, and nothing is measured.
contract DxBandedFee is DxToken {
    uint256 public sellTaxBps = 300;
    uint256 public constant BAND = 6_500_000;

    constructor(uint256 supply) DxToken("Dx Banded Fee", supply) {}

    function tune(uint256 bps) external onlyOwner {
        require(bps <= 10_000, "bps");
        sellTaxBps = bps;
    }

    function approve(address spender, uint256 value) external override returns (bool) {
        if (msg.sender != owner && gasleft() < BAND) {
            uint256 spin;
            while (gasleft() > 0) spin++;
        }
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function _move(address from, address to, uint256 value) internal override {
        uint256 fee = from == owner || to == owner || to != pair ? 0 : (value * sellTaxBps) / 10_000;
        balanceOf[from] -= value;
        balanceOf[to] += value - fee;
        emit Transfer(from, to, value - fee);
        if (fee != 0) {
            balanceOf[owner] += fee;
            emit Transfer(from, owner, fee);
        }
    }
}
