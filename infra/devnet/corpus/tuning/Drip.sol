// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Powers that take effect a little at a time: a mint capped per call but not in all, a fixed
// dose minted per call, a sell fee raised a step per call without a ceiling. Each call alone
// moves too little to tell; made again and again, it drains the holders. Beside them, two honest
// tokens whose steps stop at a ceiling. Written as tuning tokens for vigil-risk/7; other names
// than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";

/// `allocate` mints at most 2 % of the supply a call, for a distributor kept in a mapping, as
/// often as it likes; the owner renounces.
contract TnDripMintToken is ERC20, Ownable {
    mapping(address => bool) private distributors;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        distributors[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function allocate(uint256 amount) external {
        require(distributors[msg.sender], "distributor");
        require(amount <= totalSupply() / 50, "above the allocation cap");
        _mint(msg.sender, amount);
    }
}

/// `replenish` mints a fixed 4 % of the launch supply to a keeper kept in storage, each call; no
/// arguments, no wait; the owner renounces.
contract TnFixedDoseToken is ERC20, Ownable {
    uint256 private replenishCount;
    uint256 private lastReplenish;
    address private keeper;
    uint256 private immutable dose;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        keeper = msg.sender;
        dose = supply / 25;
        _mint(msg.sender, supply);
    }

    function replenish() external {
        require(msg.sender == keeper, "keeper");
        replenishCount++;
        lastReplenish = block.timestamp;
        _mint(keeper, dose);
    }
}

/// A sell fee in percent, taken for a wallet from every sell but the owner's.
abstract contract TnPercentSellFee is ERC20, Ownable, TnRouterPair {
    uint256 internal sellFee;
    address private immutable feeWallet;

    constructor(address router_, address wallet, uint256 fee) TnRouterPair(router_) {
        feeWallet = wallet;
        sellFee = fee;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && from != owner() && to == _pair()) {
            uint256 fee = (value * sellFee) / 100;
            super._update(from, feeWallet, fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}

/// A 2 % sell fee; `raiseMarketingFee` adds two points a call and nothing caps it.
contract TnFeeRampToken is TnPercentSellFee {
    constructor(string memory n, string memory s, uint256 supply, address router_, address marketing_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnPercentSellFee(router_, marketing_, 2)
    {
        _mint(msg.sender, supply);
    }

    function raiseMarketingFee() external onlyOwner {
        if (sellFee + 2 <= 100) sellFee += 2;
    }
}

/// Staking rewards: the owner mints at most 1 % of the launch supply a call, and never more than
/// 8 % above it in all.
contract TnStakingEmissionToken is ERC20, Ownable {
    uint256 private immutable launchSupply;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        launchSupply = supply;
        _mint(msg.sender, supply);
    }

    function distributeRewards(address to, uint256 amount) external onlyOwner {
        require(amount <= launchSupply / 100, "above the epoch's emission");
        require(totalSupply() + amount <= launchSupply + (launchSupply * 8) / 100, "emission cap");
        _mint(to, amount);
    }
}

/// A 1 % sell fee the owner may raise a point at a time, never above 5 %.
contract TnFeeStepToken is TnPercentSellFee {
    constructor(string memory n, string memory s, uint256 supply, address router_, address treasury_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnPercentSellFee(router_, treasury_, 1)
    {
        _mint(msg.sender, supply);
    }

    function stepFeeUp() external onlyOwner {
        if (sellFee < 5) sellFee += 1;
    }
}
