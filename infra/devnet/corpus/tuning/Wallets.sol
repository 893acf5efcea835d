// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tokens for wallets only, a common guard against bots: an address with code other than the pool
// (a bot's contract, a relay) cannot send. One moves nothing and says nothing (the transfer returns
// true); the other refuses. A person's wallet has no code, so every holder who is a person buys,
// sends and sells as with any token: these are benign, and a scanner that trades from an address
// with code reads them as honeypots no person meets.

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

interface ITnWalletsFactory {
    function getPair(address a, address b) external view returns (address);
}

interface ITnWalletsRouter {
    function factory() external view returns (address);
    function WETH() external view returns (address);
}

abstract contract TnWalletsOnlyBase is ERC20, Ownable {
    address private immutable router;

    constructor(string memory n, string memory s, uint256 supply, address router_) ERC20(n, s) Ownable(msg.sender) {
        router = router_;
        _mint(msg.sender, supply);
    }

    /// The pool, the one sender with code a sale needs (it pays out every buy).
    function pool() public view returns (address) {
        return ITnWalletsFactory(ITnWalletsRouter(router).factory()).getPair(address(this), ITnWalletsRouter(router).WETH());
    }

    function _fromContract(address from) internal view returns (bool) {
        return from != address(0) && from.code.length > 0 && from != pool();
    }
}

/// A send from an address with code other than the pool moves nothing, and the transfer returns true.
contract TnWalletsOnlyToken is TnWalletsOnlyBase {
    constructor(string memory n, string memory s, uint256 supply, address router_)
        TnWalletsOnlyBase(n, s, supply, router_)
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (_fromContract(from)) return;
        super._update(from, to, value);
    }
}

/// A send from an address with code other than the pool reverts.
contract TnWalletsOnlyStrictToken is TnWalletsOnlyBase {
    constructor(string memory n, string memory s, uint256 supply, address router_)
        TnWalletsOnlyBase(n, s, supply, router_)
    {}

    function _update(address from, address to, uint256 value) internal override {
        require(!_fromContract(from), "wallets only");
        super._update(from, to, value);
    }
}
