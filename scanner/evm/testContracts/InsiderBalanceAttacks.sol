// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";

/// Adversarial review of vigil-risk/36 (an insider's whole balance sent away): tokens for
/// scanner/evm/insiderBalance.attacks.test.ts. Sizes are for a listing of half a 1e27 supply beside
/// 10 ETH (see HolderBuy.sol): the probe's holder sells a few 1e24 at most.

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

/// Moves `value` of an HbToken's balances in its constructor, with the event.
abstract contract IaToken is HbToken {
    constructor(string memory tokenName, uint256 supply) HbToken(tokenName, supply) {}

    function _move(address from, address to, uint256 value) internal {
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/// A staking rewards pool whose code never lets anyone take more than a thousandth of what it holds
/// a day (to a distributor fixed at creation): no key and no owner can empty it.
contract IaRewardsPool {
    address public immutable token;
    address public immutable distributor;
    uint256 public lastDrip;

    constructor(address token_, address distributor_) {
        token = token_;
        distributor = distributor_;
        lastDrip = block.timestamp;
    }

    function drip() external {
        require(block.timestamp >= lastDrip + 1 days, "once a day");
        lastDrip = block.timestamp;
        IBalanceOf(token).transfer(distributor, IBalanceOf(token).balanceOf(address(this)) / 1000);
    }
}

/// Attack 1 (honest, and its scam twin): a "refill" sell tax. Sells pay 3 %, and 20 % while the
/// rewards pool holds under 1 % of the supply (it starts with 5 %). With `pool_` zero the pool is
/// an IaRewardsPool (code nobody can empty: no insider power); otherwise the wallet given (an
/// account with a key, which can empty it with one transfer and tax every sell 20 %).
contract IaRefillTax is IaToken {
    address public rewardsPool;

    constructor(uint256 supply, address pool_, address distributor)
        IaToken("Refill Tax", supply)
    {
        rewardsPool = pool_ == address(0) ? address(new IaRewardsPool(address(this), distributor)) : pool_;
        _move(msg.sender, rewardsPool, supply / 20);
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair || from == rewardsPool) return 0;
        uint256 bps = balanceOf[rewardsPool] < totalSupply / 100 ? 2_000 : 300;
        return (value * bps) / 10_000;
    }
}

/// A contract that can do nothing: what is sent to it is burned for good.
contract IaBlackHole {}

/// Attack 1b (honest): "burn milestones". Sells pay 15 % until a tenth of the supply is burned, 2 %
/// after; the burn is a black-hole contract (no code to send anything) that already holds 12 %.
contract IaBurnMilestones is IaToken {
    address public burnVault;

    constructor(uint256 supply) IaToken("Burn Milestones", supply) {
        burnVault = address(new IaBlackHole());
        _move(msg.sender, burnVault, (supply * 12) / 100);
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to != pair) return 0;
        uint256 bps = balanceOf[burnVault] * 10 < totalSupply ? 1_500 : 200;
        return (value * bps) / 10_000;
    }
}

/// Attack 2 (honest): an anti-whale sell cap of 1 % of the circulating supply, the supply less what
/// the owner and a team vault hold (the deployer keeps 40 %, the vault 10 %). An insider's send
/// puts its tokens into circulation: the cap only grows.
contract IaCirculatingCap is IaToken {
    address public teamVault;

    constructor(uint256 supply, address teamVault_) IaToken("Circulating Cap", supply) {
        teamVault = teamVault_;
        _move(msg.sender, teamVault_, supply / 10);
    }

    function circulating() public view returns (uint256) {
        return totalSupply - balanceOf[owner] - balanceOf[teamVault];
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to == pair) require(value <= circulating() / 100, "max sell");
        return 0;
    }
}

/// Attack 3 (a judgement): an "anti-dump circuit breaker". A wallet-to-wallet send of more than
/// 3 % of the supply stops every sell for the rest of its block. A team wallet holds 5 %.
contract IaCircuitBreaker is IaToken {
    address public teamWallet;
    uint256 public trippedAt;

    constructor(uint256 supply, address teamWallet_) IaToken("Circuit Breaker", supply) {
        teamWallet = teamWallet_;
        _move(msg.sender, teamWallet_, supply / 20);
    }

    function _fee(address from, address to, uint256 value) internal override returns (uint256) {
        if (to == pair) {
            require(trippedAt != block.number, "circuit breaker");
        } else if (from != pair && value > (totalSupply * 3) / 100) {
            trippedAt = block.number;
        }
        return 0;
    }
}

/// Base of the evasions: no sell may exceed what a reserve wallet holds (5 % of the supply at
/// deploy), and the owner renounces (the test calls renounce()).
abstract contract IaReserveCover is IaToken {
    constructor(string memory tokenName, uint256 supply) IaToken(tokenName, supply) {}

    function reserveAccount() public view virtual returns (address);

    function renounce() external onlyOwner {
        owner = address(0);
    }

    function _cover(address from, address to, uint256 value) internal view {
        if (to == pair && from != reserveAccount()) require(value <= balanceOf[reserveAccount()], "exceeds cover");
    }
}

/// Attack 4 (scam): the reserve may only send to the pool ("a buyback reserve that only sells"). It
/// can empty itself with one sell, but not with a transfer to a fresh wallet.
contract IaPairOnlyReserve is IaReserveCover {
    address public reserve;

    constructor(uint256 supply, address reserve_) IaReserveCover("Pair Only Reserve", supply) {
        reserve = reserve_;
        _move(msg.sender, reserve_, supply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return reserve;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (from == reserve) require(to == pair, "reserve sells only");
        _cover(from, to, value);
        return 0;
    }
}

/// Attack 5 (scam): an ordinary maximum per send, 1 % of the supply, for every send but buys. The
/// reserve (5 %) empties itself in five sends, never in one.
contract IaMaxTxReserve is IaReserveCover {
    address public reserve;

    constructor(uint256 supply, address reserve_) IaReserveCover("Max Tx Reserve", supply) {
        reserve = reserve_;
        _move(msg.sender, reserve_, supply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return reserve;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (from != pair) require(value <= totalSupply / 100, "max tx");
        _cover(from, to, value);
        return 0;
    }
}

/// Attack 6 (scam): no account may send its whole balance (an anti-dust rule honest tokens have
/// too). The reserve sends all but one unit, and every sell above one unit fails.
contract IaKeepOneReserve is IaReserveCover {
    address public reserve;

    constructor(uint256 supply, address reserve_) IaReserveCover("Keep One Reserve", supply) {
        reserve = reserve_;
        _move(msg.sender, reserve_, supply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return reserve;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (from != pair) require(value < balanceOf[from], "keep one unit");
        _cover(from, to, value);
        return 0;
    }
}

/// Attack 7 (scam): the reserve's address is kept masked (XOR with a constant): no slot, no code
/// word and no constructor argument holds it, so it is no candidate. The word that is stored looks
/// like an address and is one: a wallet nobody holds.
contract IaMaskedReserve is IaReserveCover {
    uint256 private constant MASK = uint256(keccak256("ia.mask"));
    uint256 private maskedReserve;

    constructor(uint256 supply, uint256 maskedReserve_) IaReserveCover("Masked Reserve", supply) {
        maskedReserve = maskedReserve_;
        _move(msg.sender, reserveAccount(), supply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return address(uint160(maskedReserve ^ MASK));
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        _cover(from, to, value);
        return 0;
    }
}

/// Attack 8 (scam): the reserve is set once by the owner after the launch (no constructor
/// argument) and kept past the sixteen slots a scan reads for accounts, behind ordinary settings.
contract IaDeepReserve is IaReserveCover {
    uint256 public buyFee = 1;
    uint256 public sellFee = 1;
    uint256 public maxWalletBps = 200;
    uint256 public swapThreshold = 1e21;
    uint256 public launchedAt;
    uint256 public cooldownSeconds = 30;
    uint256 public version = 2;
    uint256 public epoch = 7;
    address public reserve;

    constructor(uint256 supply) IaReserveCover("Deep Reserve", supply) {
        launchedAt = block.timestamp;
    }

    function initReserve(address reserve_) external onlyOwner {
        require(reserve == address(0), "set");
        reserve = reserve_;
        _move(msg.sender, reserve_, totalSupply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return reserve;
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (reserve != address(0)) _cover(from, to, value);
        return 0;
    }
}

/// What a cover oracle reports: what the reserve it keeps holds of the token.
contract IaCoverOracle {
    address public immutable token;
    address public reserve;

    constructor(address token_, address reserve_) {
        token = token_;
        reserve = reserve_;
    }

    function cover() external view returns (uint256) {
        return IBalanceOf(token).balanceOf(reserve);
    }
}

/// Attack 9 (scam): the cap is read from another contract, which reads the reserve's balance; the
/// token keeps only the oracle.
contract IaOracleCover is IaToken {
    address public oracle;

    constructor(uint256 supply, address reserve_) IaToken("Oracle Cover", supply) {
        oracle = address(new IaCoverOracle(address(this), reserve_));
        _move(msg.sender, reserve_, supply / 20);
    }

    function renounce() external onlyOwner {
        owner = address(0);
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (to == pair && from != IaCoverOracle(oracle).reserve()) {
            require(value <= IaCoverOracle(oracle).cover(), "exceeds cover");
        }
        return 0;
    }
}

/// Attack 10 (scam): sells work while a reserve wallet holds at least 1 ETH ("the liquidity
/// backing"): the reserve sends its ETH away, not the token.
contract IaEthBacked is IaToken {
    address public reserve;

    constructor(uint256 supply, address reserve_) IaToken("Eth Backed", supply) {
        reserve = reserve_;
    }

    function renounce() external onlyOwner {
        owner = address(0);
    }

    function _fee(address from, address to, uint256) internal view override returns (uint256) {
        if (to == pair && from != reserve) require(reserve.balance >= 1 ether, "reserve unbacked");
        return 0;
    }
}

/// Attack 11 (scam): the cover is the reserve's balance as the block's first transfer found it, so
/// the reserve's send stops sells from the next block on, never in its own.
contract IaLaggedCover is IaReserveCover {
    address public reserve;
    uint256 public coverSnapshot;
    uint256 public snapshotBlock;

    constructor(uint256 supply, address reserve_) IaReserveCover("Lagged Cover", supply) {
        reserve = reserve_;
        _move(msg.sender, reserve_, supply / 20);
    }

    function reserveAccount() public view override returns (address) {
        return reserve;
    }

    function _fee(address from, address to, uint256 value) internal override returns (uint256) {
        if (block.number != snapshotBlock) {
            snapshotBlock = block.number;
            coverSnapshot = balanceOf[reserve];
        }
        if (to == pair && from != reserve) require(value <= coverSnapshot, "exceeds cover");
        return 0;
    }
}

/// Attack 12 (scam, robustness): a sell fee the owner may raise to 100 % under an odd name, and a
/// balanceOf that burns all the gas it is given when asked about the owner (no holder asks).
contract IaGasBombBalance {
    string public name = "Gas Bomb Balance";
    string public symbol = "GB";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) private balances;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;
    uint256 public levelBps;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        balances[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function balanceOf(address account) external view returns (uint256) {
        if (account == owner) {
            uint256 spin;
            while (gasleft() > 2_000) spin++;
        }
        return balances[account];
    }

    function setPair(address newPair) external {
        require(msg.sender == owner && pair == address(0), "owner");
        pair = newPair;
    }

    function calibrate(uint256 bps) external {
        require(msg.sender == owner, "owner");
        levelBps = bps > 10_000 ? 10_000 : bps;
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

    function _transfer(address from, address to, uint256 value) internal {
        uint256 fee = to == pair && from != owner ? (value * levelBps) / 10_000 : 0;
        balances[from] -= value;
        balances[to] += value - fee;
        balances[owner] += fee;
        emit Transfer(from, to, value - fee);
    }
}
