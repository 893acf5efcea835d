// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Tokens written after vigil-risk/16 by the model's authors. Two from attacks its reviewer made on
// the probe (kept as tokens so the attack stays a test):
// - a sell cooldown that each sell starts, beside a freeze armed for the next receipt: a probe
//   whose baseline sells twice before measuring would see the later sell fail without any call,
//   and lose the freeze (a scam: limit);
// - a flash lender that lends its own reserve to any receiver and takes a fee back through the
//   receiver's callback: a probe holder that answered every loan would pay that fee, again and
//   again, and read as a leak (honest: a real holder answers no loan it did not ask for).

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {TnRouterPair} from "./RouterPair.sol";
import {ERC2771Context} from "@openzeppelin/contracts/metatx/ERC2771Context.sol";
import {ERC2771Forwarder} from "@openzeppelin/contracts/metatx/ERC2771Forwarder.sol";
import {Multicall} from "@openzeppelin/contracts/utils/Multicall.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {Context} from "@openzeppelin/contracts/utils/Context.sol";

/// "Anti-dump": one sell a minute per wallet. And a compliance freeze: watch(address), for the
/// deployer kept in an immutable, marks an account that is frozen at its next receipt.
contract TnCooldownWatchToken is ERC20, Ownable, TnRouterPair {
    uint256 public constant SELL_COOLDOWN = 60;
    address private immutable keeper;
    mapping(address => uint256) public lastSell;
    mapping(address => bool) private watched;
    mapping(address => bool) private frozen;

    constructor(string memory n, string memory s, uint256 supply, address router_)
        ERC20(n, s)
        Ownable(msg.sender)
        TnRouterPair(router_)
    {
        keeper = msg.sender;
        _mint(msg.sender, supply);
    }

    function watch(address account) external {
        require(msg.sender == keeper, "keeper");
        watched[account] = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!frozen[from], "frozen");
        if (watched[to]) frozen[to] = true;
        if (from != keeper && from != address(0) && to == _pair()) {
            require(block.timestamp >= lastSell[from] + SELL_COOLDOWN, "cooldown");
            lastSell[from] = block.timestamp;
        }
        super._update(from, to, value);
    }
}

interface ITnFlashReceiver {
    function onFlashLoan(address initiator, address token, uint256 amount, uint256 fee, bytes calldata data)
        external
        returns (bytes32);
}

/// A token that lends 1 % of the supply, kept by the token contract, to any receiver for a 0.3 %
/// fee: the receiver's callback must answer, and the loan and the fee are taken back from it.
contract TnFeeFlashLenderToken is ERC20, Ownable {
    bytes32 private constant CALLBACK_SUCCESS = keccak256("ERC3156FlashBorrower.onFlashLoan");
    uint256 public constant FEE_BPS = 30;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
        _mint(address(this), supply / 100);
    }

    function flashLoan(address receiver, uint256 amount) external returns (bool) {
        uint256 fee = (amount * FEE_BPS) / 10_000;
        _transfer(address(this), receiver, amount);
        require(
            ITnFlashReceiver(receiver).onFlashLoan(msg.sender, address(this), amount, fee, "") == CALLBACK_SUCCESS,
            "callback"
        );
        _spendAllowance(receiver, address(this), amount + fee);
        _transfer(receiver, address(this), amount + fee);
        return true;
    }
}

/// OpenZeppelin's forwarder: executes a request only with its signer's signature.
contract TnCheckForwarder is ERC2771Forwarder {
    constructor() ERC2771Forwarder("TnCheckForwarder") {}
}

/// Gasless transfers through a trusted forwarder, batches of calls and burns: OpenZeppelin's
/// ERC-2771, Multicall as 5.0.1 mended it (each item gets the request's sender appended) and
/// ERC20Burnable together.
contract TnForwardedBatchToken is ERC20, ERC20Burnable, ERC2771Context, Multicall, Ownable {
    constructor(string memory n, string memory s, uint256 supply, address forwarder)
        ERC20(n, s)
        ERC2771Context(forwarder)
        Ownable(msg.sender)
    {
        _mint(msg.sender, supply);
    }

    function _msgSender() internal view override(Context, ERC2771Context) returns (address) {
        return ERC2771Context._msgSender();
    }

    function _msgData() internal view override(Context, ERC2771Context) returns (bytes calldata) {
        return ERC2771Context._msgData();
    }

    function _contextSuffixLength() internal view override(Context, ERC2771Context) returns (uint256) {
        return ERC2771Context._contextSuffixLength();
    }
}

/// Owned by OpenZeppelin's TimelockController (two days, `DevnetTimelock`): the owner may mint any
/// amount, but only through a proposal anyone can read that waits two days (as governance tokens
/// whose minter is their timelock).
contract TnGovernedMintToken is ERC20, Ownable {
    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

/// A transfer rule book several tokens share, one tier per token, kept next to its owner in one
/// slot (Ownable): at tier 4 it refuses every transfer to a contract (the pool) but its owner's.
contract TnCheckRuleBook is Ownable {
    mapping(address => uint8) public tiers;

    constructor() Ownable(msg.sender) {}

    function setTier(address token, uint8 tier) external onlyOwner {
        tiers[token] = tier;
    }

    function allows(address from, address to) external view returns (bool) {
        if (tiers[msg.sender] != 4 || from == owner()) return true;
        return to.code.length == 0;
    }
}

/// Asks its rule book after the balances moved (a holder with nothing never gets that far).
contract TnCheckRuleBookToken is ERC20, Ownable {
    TnCheckRuleBook public immutable book;

    constructor(string memory n, string memory s, uint256 supply, address book_) ERC20(n, s) Ownable(msg.sender) {
        book = TnCheckRuleBook(book_);
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (from != address(0) && to != address(0)) require(book.allows(from, to), "rule book");
    }
}

/// A guard whose settings are bit flags packed next to its owner (one slot), working at 2: flag 4
/// refuses every transfer to a contract (the pool) but its owner's.
contract TnCheckFlagGuard is Ownable {
    uint8 public flags = 2;

    constructor() Ownable(msg.sender) {}

    function setFlags(uint8 newFlags) external onlyOwner {
        flags = newFlags;
    }

    function allows(address from, address to) external view returns (bool) {
        if ((flags & 4) == 0 || from == owner()) return true;
        return to.code.length == 0;
    }
}

/// Asks its guard before moving anything.
contract TnCheckFlagGuardToken is ERC20, Ownable {
    TnCheckFlagGuard public immutable guard;

    constructor(string memory n, string memory s, uint256 supply, address guard_) ERC20(n, s) Ownable(msg.sender) {
        guard = TnCheckFlagGuard(guard_);
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) require(guard.allows(from, to), "guard");
        super._update(from, to, value);
    }
}

/// A mint under a name mined so its selector starts with a zero byte (0x0055d20f): the compiler
/// pushes it with PUSH3, where a dispatcher scan that reads PUSH4 alone never sees a function.
contract TnCheckZeroLedToken is ERC20, Ownable {
    address private immutable operator;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        operator = msg.sender;
        _mint(msg.sender, supply);
    }

    function claimRebate144(address to, uint256 amount) external {
        require(msg.sender == operator, "operator");
        _mint(to, amount);
    }
}

interface TnCheckSyncablePair {
    function sync() external;
}

/// Written after the review of vigil-risk/23's sell measurement: setting the sell fee also takes
/// half a per cent of the pool's tokens out of the pair without a sync (the pair holds less than
/// its reserve), and every sell syncs the pair before the seller's tokens land. A sell read as the
/// pair's balance growth less its reserve's counts that deficit as paid in by the seller, and
/// hides the fee (up to 100 %, the owner's to set).
contract TnCheckUnsyncedFeeToken is ERC20, Ownable {
    address public pair;
    uint256 public sellFeePercent;

    constructor(string memory n, string memory s, uint256 supply) ERC20(n, s) Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        require(pair == address(0), "pair set");
        pair = pair_;
    }

    function setSellFee(uint256 percent) external onlyOwner {
        sellFeePercent = percent > 100 ? 100 : percent;
        uint256 taken = balanceOf(pair) / 200;
        if (taken > 0) super._update(pair, address(0xdead), taken);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && pair != address(0) && from != owner() && sellFeePercent > 0) {
            TnCheckSyncablePair(pair).sync();
            uint256 fee = (value * sellFeePercent) / 100;
            super._update(from, owner(), fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}
