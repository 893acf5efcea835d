// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Tokens for the adversarial review of vigil-risk/53's heavy steps (a probe whose step with no call
/// runs out of EFFECT_GAS makes it again with 6M, then gives every step what it used plus 1.2M):
/// scanner/evm/heavyStep.attacks.test.ts.

/// A reflection token (as HwReflection): every balance walks the wallets excluded from reflections,
/// so with twenty a step with no call needs more than 1.2M. The owner's fee setter also writes
/// `ledgerWrites` new slots (a fee history: ~25,000 gas each), and `reclaim` takes a tenth of any
/// holder's balance, writing the same history (only where `reclaimable`). With ledgerWrites = 0
/// both are cheap. With a fee cap of 5 % and no reclaim it is an honest token.
contract HvReflection {
    string public name = "Heavy Reflection";
    string public symbol = "HVR";
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
    uint256 public immutable maxTaxBps;
    uint256 public immutable ledgerWrites;
    uint256[] public feeHistory;
    bool public immutable reclaimable;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(
        uint256 supply,
        uint256 excludedWallets,
        uint256 maxTaxBps_,
        uint256 ledgerWrites_,
        bool reclaimable_
    ) {
        owner = msg.sender;
        reclaimable = reclaimable_;
        maxTaxBps = maxTaxBps_;
        ledgerWrites = ledgerWrites_;
        tTotal = supply;
        rTotal = MAX - (MAX % supply);
        uint256 rate = rTotal / supply;
        rOwned[msg.sender] = rTotal;
        emit Transfer(address(0), msg.sender, supply);
        uint256 share = supply / 2_000;
        for (uint256 i = 0; i < excludedWallets; i++) {
            address wallet = address(uint160(uint256(keccak256(abi.encode("hv.excluded", i)))));
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
        _record(bps);
    }

    /// Takes a tenth of `holder`'s balance for the owner.
    function reclaim(address holder) external onlyOwner {
        require(reclaimable, "no reclaim");
        require(!isExcluded[holder] && holder != owner, "excluded");
        uint256 taken = rOwned[holder] / 10;
        rOwned[holder] -= taken;
        rOwned[owner] += taken;
        emit Transfer(holder, owner, taken / _rate());
        _record(taken);
    }

    function _record(uint256 value) private {
        for (uint256 i = 0; i < ledgerWrites; i++) feeHistory.push(value + i);
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

/// A plain token with a sell fee (3 %) the owner may raise to 100 %, whose approve spins until it
/// runs out of gas when given less than `band` (anyone but the owner). A wallet's gas estimate finds
/// the band (the approval then costs what any approval does); the probe's step with no call, given
/// 1.2M, runs out, is made again with 6M and uses little of it; every later step then has
/// ~1.2M more than that, below the band.
contract HvGasBand {
    string public name = "Gas Band";
    string public symbol = "HVB";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;
    uint256 public sellTaxBps = 300;
    uint256 public immutable band;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply, uint256 band_) {
        owner = msg.sender;
        band = band_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
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

    function setSellTax(uint256 bps) external onlyOwner {
        require(bps <= 10_000, "bps");
        sellTaxBps = bps;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (msg.sender != owner && gasleft() < band) {
            uint256 spin;
            while (gasleft() > 0) spin++;
        }
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

    function _transfer(address from, address to, uint256 value) private {
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

/// A plain token whose supply is the launch supply plus what each of 300 emission epochs minted (a
/// totalSupply that sums them all: ~650,000 gas cold), and whose owner may mint at will into the
/// current epoch.
contract HvEpochMint {
    string public name = "Epoch Mint";
    string public symbol = "HVM";
    uint8 public decimals = 18;
    uint256 internal immutable launchSupply;
    uint256[300] internal emitted;
    uint256 internal immutable start;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        owner = msg.sender;
        start = block.timestamp;
        launchSupply = supply;
        balanceOf[msg.sender] = supply;
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

    function totalSupply() public view returns (uint256 total) {
        total = launchSupply;
        for (uint256 i = 0; i < emitted.length; i++) total += emitted[i];
    }

    function mint(uint256 amount) external onlyOwner {
        uint256 epoch = ((block.timestamp - start) / 30 days) % 300;
        emitted[epoch] += amount;
        balanceOf[owner] += amount;
        emit Transfer(address(0), owner, amount);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}
