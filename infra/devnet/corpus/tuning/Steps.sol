// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// A power that takes three calls: the owner nominates an issuer, the nominee accepts, and the
// issuer mints any amount (a two-step role handover, as careful contracts hand over ownership).
// Written as a tuning token for three-call powers; other names than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract TnNominatedIssuerToken is ERC20, Ownable {
    address private nominee;
    address private issuer;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function nominateIssuer(address who) external onlyOwner {
        nominee = who;
    }

    function acceptIssuer() external {
        require(msg.sender == nominee, "not nominated");
        issuer = nominee;
        nominee = address(0);
    }

    function issue(address to, uint256 amount) external {
        require(msg.sender == issuer, "not issuer");
        _mint(to, amount);
    }
}
