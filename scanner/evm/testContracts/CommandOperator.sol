// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Tokens whose one extra function takes a command in bytes (an op code, an account, an amount,
/// abi-encoded) from an operator wallet the contract names nowhere in storage: its address is a
/// hash of a label, as labelledWallet('co', 'operator') derives it in the test
/// (scanner/evm/commandOperator.test.ts). Which op codes it takes shows only once the operator's
/// own call gets past the operator check.
abstract contract CoCommandToken is ERC20, Ownable {
    address internal constant OPERATOR = address(uint160(uint256(keccak256("co.operator"))));

    address public pair;

    event Ping(address indexed account, uint256 value);

    constructor(string memory name_, uint256 supply) ERC20(name_, "CO") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "set");
        pair = newPair;
    }

    function run(bytes calldata command) external {
        require(msg.sender == OPERATOR, "operator only");
        (uint8 op, address account, uint256 amount) = abi.decode(command, (uint8, address, uint256));
        if (op == 2) emit Ping(account, amount);
        else _op(op, account, amount);
    }

    function _op(uint8 op, address account, uint256 amount) internal virtual;
}

/// Scam: op 11 moves any holder's tokens to the operator (a leak).
contract CoSweepCommand is CoCommandToken {
    constructor(uint256 supply) CoCommandToken("Sweep Command", supply) {}

    function _op(uint8 op, address account, uint256 amount) internal override {
        require(op == 11, "unknown op");
        uint256 held = balanceOf(account);
        _transfer(account, OPERATOR, amount > held ? held : amount);
    }
}

/// Scam: op 5 burns any holder's tokens (a leak: the holder's balance falls, nobody gains).
contract CoBurnCommand is CoCommandToken {
    constructor(uint256 supply) CoCommandToken("Burn Command", supply) {}

    function _op(uint8 op, address account, uint256 amount) internal override {
        require(op == 5, "unknown op");
        uint256 held = balanceOf(account);
        _burn(account, amount > held ? held : amount);
    }
}

/// Honest: op 11 pays an account out of the operator's own balance, op 12 records a note.
contract CoHonestCommand is CoCommandToken {
    mapping(address => uint256) public notes;

    constructor(uint256 supply) CoCommandToken("Honest Command", supply) {}

    function _op(uint8 op, address account, uint256 amount) internal override {
        if (op == 11) _transfer(OPERATOR, account, amount);
        else if (op == 12) notes[account] = amount;
        else revert("unknown op");
    }
}
