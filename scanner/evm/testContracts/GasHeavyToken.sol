// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A token for the probe's own tests (a reviewer's attacks on the codeless holder, kept): its sells
/// (sends to the pair) and its wallet-to-wallet sends burn settable gas, as a swap-back or a
/// dividend payout does; contracts other than the pair may not send (an anti-bot rule); its owner
/// may make a heavy call that changes nothing, or stop one account's sells.
contract GasHeavyToken {
    string public name = "Gas Heavy";
    string public symbol = "HEAVY";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public owner;
    address public pair;
    uint256 public sellGas;
    uint256 public sendGas;
    mapping(address => bool) public noSell;

    constructor(uint256 supply) {
        owner = msg.sender;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    function setPair(address newPair) external onlyOwner {
        pair = newPair;
    }

    function setGas(uint256 sell, uint256 send) external onlyOwner {
        sellGas = sell;
        sendGas = send;
    }

    function heavy(uint256 gas) external onlyOwner {
        _burnGas(gas);
    }

    function stopSells(address account) external onlyOwner {
        noSell[account] = true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        if (allowance[from][msg.sender] != type(uint256).max) allowance[from][msg.sender] -= amount;
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        require(from.code.length == 0 || from == pair, "no contracts");
        if (from != owner && to == pair && pair != address(0)) {
            require(!noSell[from], "no sells");
            _burnGas(sellGas);
        } else if (from != owner && from != pair) {
            _burnGas(sendGas);
        }
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
    }

    function _burnGas(uint256 gas) private view {
        uint256 start = gasleft();
        while (start - gasleft() < gas) {}
    }
}
