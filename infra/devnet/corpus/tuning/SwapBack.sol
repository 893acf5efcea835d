// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// An honest tax token of the most common template: a fee each way, swapped to ETH on sells and
// paid to a marketing wallet the owner may change. The payout's failure is ignored (and it gets
// 50,000 gas), so a wallet the owner picks can refuse the payment but not stop the sell: written
// as a false-positive check for the router shape
// (vigil-risk/13), which would read a payout that must succeed as a limit.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair, ITnRouter} from "./RouterPair.sol";

interface ITnSwapBackRouter {
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

contract TnSwapBackTolerantToken is ERC20, Ownable, TnRouterPair {
    uint256 public constant FEE_BPS = 300;
    uint256 public immutable swapThreshold;
    address public marketingWallet;
    bool private swapping;

    event MarketingWalletSet(address wallet);
    event MarketingPayoutFailed(address wallet, uint256 amount);

    constructor(string memory n, string memory s, uint256 supply, address router_, address wallet)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        marketingWallet = wallet;
        swapThreshold = supply / 100_000;
        _mint(msg.sender, supply);
    }

    receive() external payable {}

    function setMarketingWallet(address wallet) external onlyOwner {
        require(wallet != address(0), "zero wallet");
        marketingWallet = wallet;
        emit MarketingWalletSet(wallet);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!swapping && from != address(0) && to != address(0) && from != address(this)) {
            address pair = _pair();
            bool trade = pair != address(0) && (from == pair || to == pair);
            if (trade && from != owner() && to != owner()) {
                if (to == pair && balanceOf(address(this)) >= swapThreshold) _swapBack();
                uint256 fee = (value * FEE_BPS) / 10_000;
                super._update(from, address(this), fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }

    function _swapBack() private {
        swapping = true;
        uint256 amount = balanceOf(address(this));
        _approve(address(this), dexRouter, amount);
        address[] memory path = new address[](2);
        path[0] = address(this);
        path[1] = ITnRouter(dexRouter).WETH();
        ITnSwapBackRouter(dexRouter).swapExactTokensForETHSupportingFeeOnTransferTokens(
            amount, 0, path, address(this), block.timestamp
        );
        uint256 payout = address(this).balance;
        // A wallet that refuses the payment leaves it here for the next sell: the sell goes on.
        (bool ok,) = marketingWallet.call{value: payout, gas: 50_000}("");
        if (!ok) emit MarketingPayoutFailed(marketingWallet, payout);
        swapping = false;
    }
}
