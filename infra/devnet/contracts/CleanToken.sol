// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// A plain fixed-supply token. The scenario renounces its ownership after listing, which
/// leaves nothing a scanner should flag.
contract CleanToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        _mint(msg.sender, supply);
    }
}
