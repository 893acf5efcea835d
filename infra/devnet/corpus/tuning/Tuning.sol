// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The tuning part of the adversarial corpus: tokens the risk model is built and checked against.
// Written on OpenZeppelin's ERC20, with other names and hiding places than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

interface IPairFactory {
    function getPair(address a, address b) external view returns (address);
}

interface IRouterLike {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

/// Knows its Uniswap V2 pair once listed (sell rules need it).
abstract contract PairAware {
    address internal immutable router;

    constructor(address router_) {
        router = router_;
    }

    function _pairOf(address token) internal view returns (address) {
        return IPairFactory(IRouterLike(router).factory()).getPair(token, IRouterLike(router).WETH());
    }
}

// ---------------------------------------------------------------- mints under other names

/// `harvest` mints any amount to a keeper wallet kept in storage; owner renounced at launch.
contract TnHarvestToken is ERC20, Ownable {
    uint256 public lastHarvest;
    bool public harvesting;
    address private keeper;

    constructor(string memory n, string memory s, uint256 supply, address keeper_) ERC20(n, s) Ownable(msg.sender) {
        keeper = keeper_;
        _mint(msg.sender, supply);
    }

    function harvest(uint256 amount) external {
        require(msg.sender == keeper, "not keeper");
        lastHarvest = block.timestamp;
        _mint(keeper, amount);
    }
}

/// `syncReserves` mints to an operator kept in a mapping (the deployer).
contract TnSyncToken is ERC20, Ownable {
    mapping(address => bool) private operators;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        operators[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function syncReserves(address to, uint256 delta) external {
        require(operators[msg.sender], "no");
        _mint(to, delta);
    }
}

/// `release` mints five times the supply to a treasury, but only from a day after deployment.
contract TnVestingBombToken is ERC20, Ownable {
    uint256 private immutable opensAt;
    address private treasury;

    constructor(string memory n, string memory s, uint256 supply, address treasury_) ERC20(n, s) Ownable(msg.sender) {
        opensAt = block.timestamp + 1 days;
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function release() external {
        require(block.timestamp >= opensAt, "vesting");
        _mint(treasury, totalSupply() * 5);
    }
}

/// The mint sits in an inherited rewards module whose distributor is in a later slot.
abstract contract RewardsModule is ERC20 {
    uint256 public epoch;
    uint256 public rewardRate;
    address internal distributor;

    function distributeEpoch(uint256 amount) external {
        require(msg.sender == distributor, "distributor");
        epoch += 1;
        _mint(distributor, amount);
    }
}

contract TnRewardsToken is RewardsModule, Ownable {
    constructor(string memory n, string memory s, uint256 supply, address distributor_) ERC20(n, s) Ownable(msg.sender) {
        distributor = distributor_;
        rewardRate = 5;
        _mint(msg.sender, supply);
    }
}

/// owner() reads zero after a "renounce", but `compensate` checks a second admin variable.
contract TnShadowAdminToken is ERC20, Ownable {
    address private steward;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        steward = msg.sender;
        _mint(msg.sender, supply);
    }

    function compensate(address to, uint256 amount) external {
        require(msg.sender == steward, "steward");
        _mint(to, amount);
    }
}

// ---------------------------------------------------------------- balances taken

/// `rebalance` moves a holder's tokens to the manager, a role kept in a mapping.
contract TnRebalanceToken is ERC20, Ownable {
    mapping(address => uint8) private roles;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        roles[msg.sender] = 2;
        _mint(msg.sender, supply);
    }

    function rebalance(address account, uint256 amount) external {
        require(roles[msg.sender] == 2, "role");
        _update(account, msg.sender, amount);
    }
}

/// `collect` takes from any holder for the owner, no allowance needed.
contract TnCollectToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function collect(address from, uint256 amount) external onlyOwner {
        _transfer(from, owner(), amount);
    }
}

/// transferFrom skips the allowance when a stored "router" wallet calls it; owner renounced.
contract TnTrustedSpenderToken is ERC20, Ownable {
    address private trusted;

    constructor(string memory n, string memory s, uint256 supply, address trusted_) ERC20(n, s) Ownable(msg.sender) {
        trusted = trusted_;
        _mint(msg.sender, supply);
    }

    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        if (msg.sender != trusted) _spendAllowance(from, msg.sender, value);
        _transfer(from, to, value);
        return true;
    }
}

/// `expire` burns a holder's balance, said to clean up dormant wallets; owner live.
contract TnExpireToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function expire(address account) external onlyOwner {
        _burn(account, balanceOf(account));
    }
}

// ---------------------------------------------------------------- sells stopped or taxed

/// `setGuard` blocks chosen senders (a blocklist under another name).
contract TnGuardToken is ERC20, Ownable {
    mapping(address => bool) private guarded;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setGuard(address account, bool on) external onlyOwner {
        guarded[account] = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!guarded[from], "guarded");
        super._update(from, to, value);
    }
}

/// `setQuota` caps what anyone but the controller may send to the pair (a sell cap).
contract TnQuotaToken is ERC20, Ownable, PairAware {
    mapping(address => bool) private controllers;
    uint256 private quota = type(uint256).max;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        PairAware(router_)
    {
        controllers[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function setQuota(uint256 value) external {
        require(controllers[msg.sender], "controller");
        quota = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == _pairOf(address(this)) && !controllers[from]) require(value <= quota, "quota");
        super._update(from, to, value);
    }
}

/// `maintenanceMode` stops every transfer but the owner's (a pause under another name).
contract TnMaintenanceToken is ERC20, Ownable {
    bool private down;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function maintenanceMode(bool on) external onlyOwner {
        down = on;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!down || from == owner() || from == address(0), "maintenance");
        super._update(from, to, value);
    }
}

/// Sells lose half to the deployer from thirty days after deployment, with nobody calling anything.
contract TnLateTaxToken is ERC20, Ownable, PairAware {
    uint256 private immutable taxFrom;
    address private immutable collector;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        PairAware(router_)
    {
        taxFrom = block.timestamp + 30 days;
        collector = msg.sender;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (block.timestamp >= taxFrom && from != collector && to == _pairOf(address(this)) && from != address(0)) {
            uint256 cut = value / 2;
            super._update(from, collector, cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

/// `tune` sets the sell fee with no cap; owner() reads zero, a second variable holds the power.
contract TnTuneFeeToken is ERC20, PairAware {
    address private tuner;
    uint256 private sellFee;

    constructor(string memory n, string memory s, uint256 supply, address router_) ERC20(n, s) PairAware(router_) {
        tuner = msg.sender;
        _mint(msg.sender, supply);
    }

    function owner() external pure returns (address) {
        return address(0);
    }

    function tune(uint256 fee) external {
        require(msg.sender == tuner, "tuner");
        require(fee <= 100, "range");
        sellFee = fee;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (sellFee > 0 && from != tuner && from != address(0) && to == _pairOf(address(this))) {
            uint256 cut = (value * sellFee) / 100;
            super._update(from, tuner, cut);
            value -= cut;
        }
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------- benign but unusual

/// A 3 % fee on transfers to a treasury; the owner may change it, never above 5 %.
contract TnCappedFeeToken is ERC20, Ownable {
    uint256 public feeBps = 300;
    address public treasury;

    constructor(string memory n, string memory s, uint256 supply, address treasury_) ERC20(n, s) Ownable(msg.sender) {
        treasury = treasury_;
        _mint(msg.sender, supply);
    }

    function setFee(uint256 bps) external onlyOwner {
        require(bps <= 500, "cap");
        feeBps = bps;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && from != owner() && to != owner()) {
            uint256 fee = (value * feeBps) / 10_000;
            super._update(from, treasury, fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}

/// Every transfer burns 1 %.
contract TnBurnOnTransferToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && from != owner() && to != owner()) {
            uint256 burned = value / 100;
            super._update(from, address(0), burned);
            value -= burned;
        }
        super._update(from, to, value);
    }
}

/// Emission capped at 5 % above the launch supply, minted by the owner.
contract TnCappedEmissionToken is ERC20, Ownable {
    uint256 public immutable cap;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        cap = supply + supply / 20;
        _mint(msg.sender, supply);
    }

    function emitTo(address to, uint256 amount) external onlyOwner {
        require(totalSupply() + amount <= cap, "cap");
        _mint(to, amount);
    }
}

/// Permit (EIP-2612) and a renounced owner.
contract TnPermitToken is ERC20, ERC20Permit, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) ERC20Permit(n) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }
}

/// Trading opens once and can never close again.
contract TnOneWayLaunchToken is ERC20, Ownable {
    bool public open;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function openTrading() external onlyOwner {
        open = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(open || from == owner() || to == owner() || from == address(0), "closed");
        super._update(from, to, value);
    }
}

/// A max wallet the owner may only raise.
contract TnRisingLimitToken is ERC20, Ownable {
    uint256 public maxWallet;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        maxWallet = supply / 20;
        _mint(msg.sender, supply);
    }

    function raiseMaxWallet(uint256 value) external onlyOwner {
        require(value > maxWallet, "only up");
        maxWallet = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (to != owner() && to != address(0) && from != address(0) && to.code.length == 0)
            require(balanceOf(to) <= maxWallet, "max wallet");
    }
}

/// A plain token whose owner renounced.
contract TnPlainToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }
}
