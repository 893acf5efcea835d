// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {HbToken} from "./HolderBuy.sol";

/// Tokens for an insider's ordinary transfer as a power (scanner/evm/insiderBalance.test.ts).

/// Scam: no sell may exceed what a "treasury" wallet holds (5 % of the supply at deploy). The owner
/// renounces; no setter is left, but the treasury sending its tokens away stops every sell.
contract IbTreasuryCover is HbToken {
    address public treasury;

    constructor(uint256 supply, address treasury_) HbToken("Treasury Cover", supply) {
        treasury = treasury_;
        balanceOf[msg.sender] -= supply / 20;
        balanceOf[treasury_] += supply / 20;
        emit Transfer(msg.sender, treasury_, supply / 20);
    }

    function renounce() external onlyOwner {
        owner = address(0);
    }

    function _fee(address from, address to, uint256 value) internal view override returns (uint256) {
        if (to == pair && from != treasury) require(value <= balanceOf[treasury], "exceeds cover");
        return 0;
    }
}

/// Benign: the same treasury and the same renounce, but a fixed cover (5 % of the supply per
/// sell) that no account's balance moves.
contract IbFixedCover is HbToken {
    address public treasury;
    uint256 public immutable cover;

    constructor(uint256 supply, address treasury_) HbToken("Fixed Cover", supply) {
        treasury = treasury_;
        cover = supply / 20;
        balanceOf[msg.sender] -= supply / 20;
        balanceOf[treasury_] += supply / 20;
        emit Transfer(msg.sender, treasury_, supply / 20);
    }

    function renounce() external onlyOwner {
        owner = address(0);
    }

    function _fee(address, address to, uint256 value) internal view override returns (uint256) {
        if (to == pair) require(value <= cover, "exceeds cover");
        return 0;
    }
}
