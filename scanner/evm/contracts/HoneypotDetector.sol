// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IUniswapV2RouterLike {
    function factory() external view returns (address);
    function WETH() external view returns (address);
    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory);
    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable;
    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

interface IUniswapV2FactoryLike {
    function getPair(address tokenA, address tokenB) external view returns (address);
}

// Called with low-level calls: many tokens return nothing, or something odd, from these.
bytes4 constant TRANSFER = 0xa9059cbb; // transfer(address,uint256)
bytes4 constant APPROVE = 0x095ea7b3; // approve(address,uint256)
bytes4 constant BALANCE_OF = 0x70a08231; // balanceOf(address)
bytes4 constant GET_RESERVES = 0x0902f1ac; // getReserves() of a Uniswap V2 pair
bytes4 constant TOKEN0 = 0x0dfe1681; // token0() of a Uniswap V2 pair
bytes4 constant SYNC = 0xfff6cae9; // sync() of a Uniswap V2 pair
// Gas for the holder's send to itself before its sell: a plain transfer with a fee takes ~60k.
uint256 constant RECEIPT_GAS = 150_000;

struct Leg {
    bool attempted;
    bool ok;
    uint256 amountIn;
    // What a token without taxes would deliver for amountIn.
    uint256 expected;
    uint256 received;
    uint256 gasUsed;
    bytes revertData;
}

/// What one privileged call did, seen from the outside.
struct Effect {
    bool ok;
    bytes revertData;
    uint256 gasUsed;
    uint256 supplyBefore;
    uint256 supplyAfter;
    uint256 victimBefore;
    uint256 victimAfter;
    address ownerAfter;
    // The victim then sends half its tokens to a fresh wallet.
    Leg victimTransfer;
    // ...and an eighth to `sellTo` (the pair) before receiving anything: what a sell does at the
    // token, where sell-only blocks, caps and taxes act.
    Leg victimEarlySell;
    // ...and, after receiving one unit (sent to itself), half of what is left to `sellTo`.
    Leg victimSell;
    // Balances of the token around the call: the caller's, the pair's, the token contract's
    // own; and the pair's wrapped native coin (a swap pays it, a drain does not).
    Around around;
}

struct Around {
    uint256 actorBefore;
    uint256 actorAfter;
    uint256 pairBefore;
    uint256 pairAfter;
    uint256 selfBefore;
    uint256 selfAfter;
    uint256 pairWethBefore;
    uint256 pairWethAfter;
}

/// One step of the probe: the call `actor` makes (none for the baseline) on `token`, and where the
/// holder then sells (`sellTo`, the pair, whose wrapped native coin is `weth`).
struct Plan {
    address actor;
    address token;
    // The holder lets it spend its tokens, as every holder who has sold through it has: a power
    // that spends those allowances shows on it.
    address router;
    address weth;
    address sellTo;
    // The holder also sells before it receives anything (see ProbeHolder).
    bool earlySell;
    bytes call;
}

/// Trades a token, and tries what privileged accounts can do to it, inside one eth_call. It is
/// never deployed: the caller injects this runtime code (and the ETH it spends) with a state
/// override, at a fresh address for a round trip (whose trades a wallet without code it creates
/// makes: see RoundTripTrader), at a real holder's address to sell as that holder (where a node
/// cannot simulate the holder's own transactions), or at an owner's address to call the owner's
/// functions as the owner (and at a factory address, which creates the probe's ordinary holder:
/// see ProbeHolder). Every step
/// catches its own failure, so one revert never hides what the other steps measured. Steps that
/// must leave no trace run in a self-call that always reverts with its result (`Isolated`).
contract HoneypotDetector {
    struct Result {
        address weth;
        address pair;
        Leg buy;
        Leg transfer;
        // Everything held after the transfer.
        Leg sell;
        // 90 % of the holding, tried only when selling everything failed.
        Leg sellPartial;
        // A second buy and sell right after the first ones: per-wallet cooldowns show here.
        Leg buyAgain;
        Leg sellAgain;
        // A buy of largeAmountIn for a fresh wallet, undone afterwards: size limits show here.
        Leg largeBuy;
    }

    error Isolated(bytes payload);

    bytes4 private constant TOTAL_SUPPLY = 0x18160ddd; // totalSupply()
    bytes4 private constant OWNER = 0x8da5cb5b; // owner()
    // keccak256("vigil.holder-half"): a placeholder word no real argument takes.
    uint256 private constant HOLDER_HALF = uint256(keccak256("vigil.holder-half"));
    // keccak256("vigil.caller-all"): a placeholder for all the caller holds of the token.
    uint256 private constant CALLER_ALL = uint256(keccak256("vigil.caller-all"));
    // Gas for one step: the holder's creation, the call and its measurements, and the holder's
    // sends and sells. A call that loops or allocates without end (a word read as a count or a
    // length) fails alone instead of starving the calls after it. The holder's creation, its
    // approval in every step and its reserve take ~120k of it: 1.2M leaves the call and the legs
    // more than the 1M of a step without a holder to create did.
    uint256 private constant EFFECT_GAS = 1_200_000;
    // Gas for every step of a token whose plain step (no call) needs more than EFFECT_GAS: a
    // reflection token whose every balance walks a long list of excluded wallets (~165k a cold
    // read with twenty), or a sell that swaps the fees it took. The plain step is made again with
    // it, and so is every call's. All steps alike, not sized by what the plain step used: a token
    // cheap in that step alone (an approval that burns its gas unless given millions) would
    // choose the gas of the steps after it, and a call that writes much would starve the holder's
    // legs (adversarial review of vigil-risk/53, heavyStep.attacks.test.ts). Fewer steps fit one
    // round trip; other tokens are unchanged.
    uint256 private constant HEAVY_EFFECT_GAS = 6_000_000;
    // bytes4(keccak256("vigil.sequence")): a call that is several calls, abi-encoded as bytes[].
    bytes4 private constant SEQUENCE = bytes4(keccak256("vigil.sequence"));
    // bytes4(keccak256("vigil.elsewhere")): a step sent to another contract the token relies on
    // (a policy, an oracle, a module), abi-encoded as (address target, bytes data) after it.
    bytes4 private constant ELSEWHERE = bytes4(keccak256("vigil.elsewhere"));
    // bytes4(keccak256("vigil.churn")): calls around a market's trading, abi-encoded as (address
    // router, bytes[] before, bytes[] after) after it: the calls before, then CHURN_BUYS buys for
    // fresh wallets of a tenth of the pool's wrapped coin in all, then the calls after, whose effect
    // is measured from the end of the trading (what a call does to balances trading has moved).
    bytes4 private constant CHURN = bytes4(keccak256("vigil.churn"));
    uint256 private constant CHURN_BUYS = 10;
    // A step that trades: its buys (a taxed transfer from an excluded pool costs ~150k each) on
    // top of what any step may spend.
    uint256 private constant CHURN_EFFECT_GAS = 4_000_000;
    // Gas kept for encoding the probe's answer: a chunk's effects (~60 words each) and its memory.
    uint256 private constant ANSWER_GAS = 400_000;

    function roundTrip(address router, address token, uint256 amountIn, uint256 largeAmountIn)
        external
        returns (Result memory r)
    {
        IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
        r.weth = dex.WETH();
        r.pair = IUniswapV2FactoryLike(dex.factory()).getPair(token, r.weth);
        if (r.pair == address(0)) return r;
        if (largeAmountIn != 0) r.largeBuy = _isolatedBuy(router, token, largeAmountIn);
        // The trades themselves are made by a wallet without code (see RoundTripTrader).
        try new RoundTripTrader{value: amountIn * 2}(router, token, r.weth, r.pair, amountIn) {
            revert("the round trip's trader did not report");
        } catch (bytes memory data) {
            (bool tagged, bytes memory payload) = _unwrap(data);
            // Whatever stopped the trader (out of gas, say) fails the whole simulation, as before.
            if (!tagged) {
                assembly {
                    revert(add(data, 32), mload(data))
                }
            }
            Result memory traded = abi.decode(payload, (Result));
            r.buy = traded.buy;
            r.transfer = traded.transfer;
            r.sell = traded.sell;
            r.sellPartial = traded.sellPartial;
            r.buyAgain = traded.buyAgain;
            r.sellAgain = traded.sellAgain;
        }
    }

    /// Sells everything this address holds (90 % if everything fails), as the holder whose address
    /// the code was put at.
    function sellAll(address router, address token) external returns (Leg memory leg) {
        IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
        address weth = dex.WETH();
        address pair = IUniswapV2FactoryLike(dex.factory()).getPair(token, weth);
        if (pair == address(0)) return leg;
        uint256 held = _balanceOf(token, address(this));
        leg = _sell(address(this), dex, token, weth, pair, held);
        // Like the round trip: a token that only forbids selling everything is not a trap.
        if (leg.attempted && !leg.ok) {
            Leg memory part = _sell(address(this), dex, token, weth, pair, (held * 9) / 10);
            if (part.ok) leg = part;
        }
    }

    /// Calls each of `calls` on the token from this address, each on the same starting state.
    /// With a router, the probe's holder (a wallet with no code: see ProbeHolder; `factory` must
    /// carry this code too) first buys with buyWei, so the effect of each call on an ordinary
    /// holder can be seen. `stepGas`: the gas each step had (more than EFFECT_GAS for a heavy token).
    function probe(
        address token,
        address router,
        address factory,
        uint256 buyWei,
        address sellTo,
        bytes[] calldata calls
    ) external returns (Leg memory victimBuy, Effect memory baseline, Effect[] memory effects, uint256 stepGas) {
        address victim = holderOf(factory);
        if (router != address(0) && buyWei != 0) {
            IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
            victimBuy = _buy(dex, token, dex.WETH(), buyWei, victim);
        }
        effects = new Effect[](calls.length);
        Plan memory plan = Plan({
            actor: address(this),
            token: token,
            router: router,
            weth: router == address(0) ? address(0) : IUniswapV2RouterLike(router).WETH(),
            sellTo: sellTo,
            earlySell: false,
            call: ""
        });
        stepGas = EFFECT_GAS;
        bool whole;
        (whole, baseline) = _step(factory, plan, stepGas);
        // The step with no call did not finish (out of gas): the token's own sends and reads are
        // heavy, and every step gets the larger allowance, or no call's effect would be measured.
        if (!whole && _fits(HEAVY_EFFECT_GAS)) {
            stepGas = HEAVY_EFFECT_GAS;
            (, baseline) = _step(factory, plan, stepGas);
        }
        // Where the holder's sell after its receipt fails without any call (its own receipt locked
        // it: a cooldown on wallet-to-wallet receipts), the baseline and every call also sell before
        // the receipt, where a call that locks holders still shows; elsewhere they do not, so the
        // later sell follows the same steps with and without a call.
        plan.earlySell = baseline.victimSell.attempted && !baseline.victimSell.ok;
        if (plan.earlySell) (, baseline) = _step(factory, plan, stepGas);
        for (uint256 i = 0; i < calls.length; i++) {
            plan.call = calls[i];
            uint256 gas = _gasFor(calls[i], stepGas);
            // Too little gas left for this step and the answer: the answer holds the steps made so
            // far, and the caller sends the rest again. Running out would revert them all, and the
            // gas spent on them with them.
            if (!_fits(gas)) {
                _cut(effects, i);
                break;
            }
            (whole, effects[i]) = _step(factory, plan, gas);
            // A light step that ran out whole (a call that writes much, or one that loops without
            // end) is made again with HEAVY_EFFECT_GAS, so a costly power is measured too; where
            // that much is not left, it goes first in the next round trip instead.
            if (!whole && gas < HEAVY_EFFECT_GAS) {
                if (!_fits(HEAVY_EFFECT_GAS)) {
                    _cut(effects, i);
                    break;
                }
                (, effects[i]) = _step(factory, plan, HEAVY_EFFECT_GAS);
            }
        }
    }

    /// Whether a step of `gas` and the answer after it fit in the gas left (a call keeps a 64th back).
    function _fits(uint256 gas) private view returns (bool) {
        return gasleft() >= gas + gas / 63 + ANSWER_GAS;
    }

    /// `effects` cut to its first `length` entries: the answer holds the steps made.
    function _cut(Effect[] memory effects, uint256 length) private pure {
        assembly {
            mstore(effects, length)
        }
    }

    /// The gas for a step of `call`: a churn's trading needs more than most tokens' steps.
    function _gasFor(bytes calldata call, uint256 stepGas) private pure returns (uint256) {
        bool churn = call.length >= 4 && bytes4(call[:4]) == CHURN;
        return churn && stepGas < CHURN_EFFECT_GAS ? CHURN_EFFECT_GAS : stepGas;
    }

    /// One step (see effectOf) with `gas`; `whole` when it reported, rather than stopping (out of gas, say).
    function _step(address factory, Plan memory plan, uint256 gas) private returns (bool whole, Effect memory e) {
        try this.effectOf{gas: gas}(factory, plan) {} catch (bytes memory data) {
            return (data.length >= 4 && bytes4(data) == Isolated.selector, _unwrapEffect(data));
        }
    }

    /// Where `factory` (carrying this code) creates the probe's holder: fixed by the factory's
    /// address and ProbeHolder's code, so the caller knows it before any probe.
    function holderOf(address factory) public pure returns (address holder) {
        bytes32 hash = keccak256(
            abi.encodePacked(bytes1(0xff), factory, bytes32(0), keccak256(type(ProbeHolder).creationCode))
        );
        holder = address(uint160(uint256(hash)));
    }

    /// One step with the probe's holder: `factory` creates it for this step, it lets the router
    /// spend its tokens, has `plan.actor` (this code) make the call (`act`), then sends and sells
    /// (see ProbeHolder). Always reverts, so the state is rolled back.
    function effectOf(address factory, Plan calldata plan) external {
        bytes memory data = HoneypotDetector(payable(factory)).holderStep(plan);
        // The holder's answer as it is: Isolated(effect), or whatever stopped it (out of gas, say).
        assembly {
            revert(add(data, 32), mload(data))
        }
    }

    /// The factory's part: keeps the plan for the holder's constructor to read, creates the holder,
    /// and returns what the holder reverted with (its encoded Effect).
    function holderStep(Plan calldata plan) external returns (bytes memory answer) {
        _keepPlan(abi.encode(plan));
        try new ProbeHolder{salt: bytes32(0)}() {
            revert("the probe's holder did not report");
        } catch (bytes memory data) {
            return data;
        }
    }

    /// The plan holderStep keeps, for the holder's constructor (see ProbeHolder).
    function holderPlan() external view returns (Plan memory plan) {
        return abi.decode(_keptPlan(), (Plan));
    }

    /// One privileged call, made from this address for the probe's holder (msg.sender, during its
    /// constructor), and what it changed: supply, balances, owner(). The holder's own steps follow
    /// in its constructor.
    function act(address token, address weth, address sellTo, bytes calldata call)
        external
        returns (Effect memory e)
    {
        address victim = msg.sender;
        _measureBefore(e, token, weth, sellTo, victim);
        if (call.length >= 4 && bytes4(call[:4]) == CHURN) {
            (address router, bytes[] memory before, bytes[] memory afterwards) =
                abi.decode(call[4:], (address, bytes[], bytes[]));
            for (uint256 i = 0; i < before.length; i++) {
                _send(token, before[i], e.victimBefore / 2);
            }
            _churn(IUniswapV2RouterLike(router), token, sellTo);
            _measureBefore(e, token, weth, sellTo, victim);
            for (uint256 i = 0; i < afterwards.length; i++) {
                (e.ok, e.revertData, e.gasUsed) = _send(token, afterwards[i], e.victimBefore / 2);
            }
            if (e.ok) e.revertData = "";
        } else if (call.length >= 4 && bytes4(call[:4]) == SEQUENCE) {
            // Steps before the last prepare the state (a failed one is skipped); the last is the call
            // whose effect is measured.
            bytes[] memory steps = abi.decode(call[4:], (bytes[]));
            for (uint256 i = 0; i < steps.length; i++) {
                (e.ok, e.revertData, e.gasUsed) = _send(token, steps[i], e.victimBefore / 2);
            }
            if (e.ok) e.revertData = "";
        } else if (call.length != 0) {
            (e.ok, e.revertData, e.gasUsed) = _send(token, call, e.victimBefore / 2);
            if (e.ok) e.revertData = "";
        } else {
            e.ok = true;
        }
        e.supplyAfter = _uintCall(token, abi.encodeWithSelector(TOTAL_SUPPLY));
        e.victimAfter = _balanceOf(token, victim);
        e.around.actorAfter = _balanceOf(token, address(this));
        e.around.selfAfter = _balanceOf(token, token);
        if (sellTo != address(0)) {
            e.around.pairAfter = _balanceOf(token, sellTo);
            if (weth != address(0)) e.around.pairWethAfter = _balanceOf(weth, sellTo);
        }
        e.ownerAfter = address(uint160(_uintCall(token, abi.encodeWithSelector(OWNER))));
    }

    /// What an effect is measured from: the supply and the balances around the call.
    function _measureBefore(Effect memory e, address token, address weth, address sellTo, address victim)
        private
        view
    {
        e.supplyBefore = _uintCall(token, abi.encodeWithSelector(TOTAL_SUPPLY));
        e.victimBefore = _balanceOf(token, victim);
        e.around.actorBefore = _balanceOf(token, address(this));
        e.around.selfBefore = _balanceOf(token, token);
        if (sellTo != address(0)) {
            e.around.pairBefore = _balanceOf(token, sellTo);
            if (weth != address(0)) e.around.pairWethBefore = _balanceOf(weth, sellTo);
        }
    }

    /// A market trading: CHURN_BUYS buys, each for a fresh wallet (which pays the token's fees, as
    /// an insider's exempt wallet may not), of a tenth of the pool's wrapped coin in all; the
    /// first refused buy ends it (a cooldown or a cap refuses the rest alike).
    function _churn(IUniswapV2RouterLike dex, address token, address pair) private {
        if (address(dex) == address(0) || pair == address(0)) return;
        address weth = dex.WETH();
        uint256 each = _balanceOf(weth, pair) / (10 * CHURN_BUYS);
        for (uint256 i = 0; i < CHURN_BUYS && each != 0; i++) {
            if (!_buy(dex, token, weth, each, _fresh(address(this), token, 16 + i)).ok) return;
        }
    }

    /// One step: a call to the token, or (ELSEWHERE) to another contract, with its placeholder words
    /// filled in; the gas the call itself used (the other contract warmed first, so a read there
    /// costs what a read on the token does).
    function _send(address token, bytes memory step, uint256 half)
        private
        returns (bool ok, bytes memory revertData, uint256 gasUsed)
    {
        address target = token;
        bytes memory data = step;
        if (step.length >= 4 && bytes4(step) == ELSEWHERE) {
            bytes memory body;
            // The bytes after the marker, in place: `step` is not read again.
            assembly {
                body := add(step, 4)
                mstore(body, sub(mload(step), 4))
            }
            (target, data) = abi.decode(body, (address, bytes));
            _uintCall(target, "");
        }
        data = _withPlaceholders(data, half, token);
        uint256 gasBefore = gasleft();
        (ok, revertData) = target.call(data);
        gasUsed = gasBefore - gasleft();
    }

    /// A call's argument words equal to HOLDER_HALF become `half` (half the holder's balance at the
    /// time of the call), and those equal to CALLER_ALL the caller's whole balance of the token
    /// then, so a probe can name an amount an account surely has without asking first. Read every
    /// four bytes, not every word: a call handed to the token inside a byte string (a batch, an
    /// execute) has its words four bytes off the outer call's.
    function _withPlaceholders(bytes memory call, uint256 half, address token)
        private
        view
        returns (bytes memory data)
    {
        data = call;
        for (uint256 at = 4; at + 32 <= data.length; at += 4) {
            uint256 word;
            assembly {
                word := mload(add(add(data, 32), at))
            }
            if (word == HOLDER_HALF || word == CALLER_ALL) {
                uint256 value = word == HOLDER_HALF ? half : _balanceOf(token, address(this));
                assembly {
                    mstore(add(add(data, 32), at), value)
                }
            }
        }
    }

    /// ERC-3156's borrower callback, so a flash loan to a probed account can complete: the lender
    /// may take back what it says is owed (checked: a sum past 2^256 reverts), and no more.
    function onFlashLoan(address initiator, address token, uint256 amount, uint256 fee, bytes calldata data)
        external
        returns (bytes32 success)
    {
        // Only a loan this address asked for (a real holder takes no loan it did not ask for);
        // whatever data came with it.
        require(initiator == address(this), "not my loan");
        (data);
        _callToken(token, abi.encodeWithSelector(APPROVE, msg.sender, amount + fee), gasleft());
        return keccak256("ERC3156FlashBorrower.onFlashLoan");
    }

    /// A buy whose effects are undone: always reverts with the leg.
    function buyIsolated(address router, address token, uint256 amountIn, address recipient) external {
        IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
        revert Isolated(abi.encode(_buy(dex, token, dex.WETH(), amountIn, recipient)));
    }

    function _isolatedBuy(address router, address token, uint256 amountIn) private returns (Leg memory leg) {
        try this.buyIsolated(router, token, amountIn, _fresh(address(this), token, 3)) {} catch (bytes memory data) {
            (bool tagged, bytes memory payload) = _unwrap(data);
            if (tagged) return abi.decode(payload, (Leg));
            leg.attempted = true;
            leg.amountIn = amountIn;
            leg.revertData = data;
        }
    }

    function _unwrapEffect(bytes memory data) private pure returns (Effect memory e) {
        (bool tagged, bytes memory payload) = _unwrap(data);
        if (tagged) return abi.decode(payload, (Effect));
        // The isolated step itself failed (out of gas, say): report the call as failed.
        e.revertData = data;
    }

    /// The payload of an `Isolated(bytes)` revert, if that is what `data` is.
    function _unwrap(bytes memory data) private pure returns (bool tagged, bytes memory payload) {
        if (data.length < 4 || bytes4(data) != Isolated.selector) return (false, data);
        bytes memory body = new bytes(data.length - 4);
        for (uint256 i = 0; i < body.length; i++) body[i] = data[i + 4];
        return (true, abi.decode(body, (bytes)));
    }

    // Where holderStep keeps its plan (transient storage: gone when the call ends, and rolled back
    // with the step): the length, then the words.
    uint256 private constant PLAN_SLOT = uint256(keccak256("vigil.holder-plan"));

    function _keepPlan(bytes memory plan) private {
        uint256 slot = PLAN_SLOT;
        assembly {
            let length := mload(plan)
            tstore(slot, length)
            for { let i := 0 } lt(mul(i, 32), length) { i := add(i, 1) } {
                tstore(add(slot, add(i, 1)), mload(add(plan, add(32, mul(i, 32)))))
            }
        }
    }

    function _keptPlan() private view returns (bytes memory plan) {
        uint256 slot = PLAN_SLOT;
        assembly {
            let length := tload(slot)
            let words := div(add(length, 31), 32)
            plan := mload(0x40)
            mstore(plan, length)
            for { let i := 0 } lt(i, words) { i := add(i, 1) } {
                mstore(add(plan, add(32, mul(i, 32))), tload(add(slot, add(i, 1))))
            }
            mstore(0x40, add(plan, add(32, mul(words, 32))))
        }
    }

    // Sells through the router pay out ETH here.
    receive() external payable {}
}

/// The round trip's trader, a wallet without code: the detector creates it for one round trip, and
/// it trades only from this constructor, while its address has no code yet (as ProbeHolder acts),
/// so a token that treats contracts apart (drops or refuses what an address with code sends) meets
/// it as it meets a person. It buys with half the coin it was given, sends a quarter of what it got
/// to a fresh wallet, sells the rest (90 % where everything fails), then buys and sells again, and
/// reverts with Isolated(the encoded Result): the legs, which is how a constructor can answer.
contract RoundTripTrader {
    constructor(address router, address token, address weth, address pair, uint256 amountIn) payable {
        IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
        HoneypotDetector.Result memory r;
        r.buy = _buy(dex, token, weth, amountIn, address(this));
        if (r.buy.ok && r.buy.received != 0) {
            r.transfer = _transfer(address(this), token, _fresh(address(this), token, 1), r.buy.received / 4, gasleft());
            uint256 held = _balanceOf(token, address(this));
            r.sell = _sell(address(this), dex, token, weth, pair, held);
            if (r.sell.attempted && !r.sell.ok) {
                r.sellPartial = _sell(address(this), dex, token, weth, pair, (held * 9) / 10);
            }
            r.buyAgain = _buy(dex, token, weth, amountIn, address(this));
            if (r.sell.ok && r.buyAgain.ok) {
                r.sellAgain = _sell(address(this), dex, token, weth, pair, _balanceOf(token, address(this)));
            }
        }
        revert HoneypotDetector.Isolated(abi.encode(r));
    }
}

/// The probe's ordinary holder, for one step. A person's wallet has no code, and tokens that treat
/// contracts apart (an EXTCODESIZE or EXTCODEHASH check against bots) would refuse a holder that
/// had; so the holder acts only from this constructor, while its address has no code yet, and the
/// factory (HoneypotDetector.holderStep) creates it anew, at the same address, in every step, each
/// rolled back. It lets the router spend its tokens, has the plan's actor make the call, then:
/// sends half its tokens to a fresh wallet; with `earlySell`, sells an eighth before it receives
/// anything (a receipt that locks the receiver's sells would otherwise lock its own); receives one
/// unit (sent to itself: a freeze armed by the call to land on the next receipt shows in the
/// sell); and sells half of what is left (a transfer to the pair, as a sell does at the token).
/// It reverts with Isolated(the encoded Effect), which is how a constructor can answer. Each send
/// leaves LEG_RESERVE gas unspent, so a token that burns all it is given still lets the answer out.
contract ProbeHolder {
    constructor() {
        Plan memory plan = HoneypotDetector(payable(msg.sender)).holderPlan();
        address token = plan.token;
        if (plan.router != address(0)) {
            _callToken(token, abi.encodeWithSelector(APPROVE, plan.router, type(uint256).max), gasleft());
        }
        Effect memory e = HoneypotDetector(payable(plan.actor)).act(token, plan.weth, plan.sellTo, plan.call);
        // A call that reverted changed nothing the holder's legs could show (what a sequence's
        // earlier steps did is not its effect either): they are left unattempted.
        if (e.ok && e.victimAfter != 0) {
            e.victimTransfer = _transfer(address(this), token, _fresh(address(this), token, 2), e.victimAfter / 2, _spare());
            // With half the gas left at most, so a sell that burns all it is given leaves the rest theirs.
            uint256 early = _balanceOf(token, address(this)) / 4;
            if (plan.earlySell && plan.sellTo != address(0) && early != 0) {
                e.victimEarlySell = _sellToPair(address(this), token, plan.sellTo, early, 2);
            }
            // Capped, so a token whose send burns every unit of gas it is given leaves the sell its share.
            _transfer(address(this), token, address(this), 1, RECEIPT_GAS);
            uint256 left = _balanceOf(token, address(this));
            if (plan.sellTo != address(0) && left != 0) {
                e.victimSell = _sellToPair(address(this), token, plan.sellTo, left / 2, 1);
            }
        }
        revert HoneypotDetector.Isolated(abi.encode(e));
    }
}

// Gas each of the holder's sends leaves for what follows it (its own measurements, the answer).
uint256 constant LEG_RESERVE = 40_000;

/// The gas a send may take: all but LEG_RESERVE (half, when less than twice that is left).
function _spare() view returns (uint256) {
    uint256 left = gasleft();
    return left > 2 * LEG_RESERVE ? left - LEG_RESERVE : left / 2;
}

/// `self` sends `amount` to `recipient`; the token may use `gasCap` gas at most.
function _transfer(address self, address token, address recipient, uint256 amount, uint256 gasCap)
    returns (Leg memory leg)
{
    if (amount == 0) return leg;
    leg.attempted = true;
    leg.amountIn = amount;
    leg.expected = amount;
    uint256 balanceBefore = _balanceOf(token, recipient);
    uint256 heldBefore = _balanceOf(token, self);
    uint256 gasBefore = gasleft();
    (leg.ok, leg.revertData) = _callToken(token, abi.encodeWithSelector(TRANSFER, recipient, amount), gasCap);
    leg.gasUsed = gasBefore - gasleft();
    leg.received = _increase(balanceBefore, _balanceOf(token, recipient));
    // A sender charged more than it sent (a fee taken from what it keeps) paid that for what arrived.
    uint256 lost = _decrease(heldBefore, _balanceOf(token, self));
    if (leg.ok && lost > amount) leg.expected = lost;
}

/// A sell at the token: `self` sends `amount` to the pair, and what arrived is what the pair's swap
/// will count as paid in: its balance beyond its reserve, after the pair was synced (anyone may
/// sync a pair: what it held beyond its reserve is its own then, not the seller's). A token that
/// moves the pair's own tokens during the send (a buyback swapped out of it, an LP burn and a sync)
/// changes the pair's balance by more or less than the seller's tokens, and its reserve with it; a
/// token that syncs the pair after the seller's tokens land takes them into the reserve, which is
/// what the router would then find: nothing paid in. Where `pair` cannot be synced or keeps no
/// reserve equal to its balance, the growth of its balance. The token may use the gas left but for
/// LEG_RESERVE, divided by `share`.
function _sellToPair(address self, address token, address pair, uint256 amount, uint256 share)
    returns (Leg memory leg)
{
    (bool synced,) = pair.call(abi.encodeWithSelector(SYNC));
    bool counted = synced && _reserveOf(token, pair) == _balanceOf(token, pair);
    leg = _transfer(self, token, pair, amount, _spare() / share);
    if (!counted || !leg.ok) return leg;
    uint256 balance = _balanceOf(token, pair);
    uint256 reserve = _reserveOf(token, pair);
    leg.received = balance > reserve ? balance - reserve : 0;
}

/// A Uniswap V2 pair's reserve of `token`; none (the largest word) where `pair` answers no reserves.
function _reserveOf(address token, address pair) view returns (uint256) {
    (bool reserved, bytes memory reserves) = pair.staticcall(abi.encodeWithSelector(GET_RESERVES));
    (bool known, bytes memory first) = pair.staticcall(abi.encodeWithSelector(TOKEN0));
    if (!reserved || reserves.length < 64 || !known || first.length < 32) return type(uint256).max;
    (uint256 reserve0, uint256 reserve1) = abi.decode(reserves, (uint256, uint256));
    // Read as words: a malformed answer compares unequal instead of reverting.
    uint256 reserve = abi.decode(first, (uint256)) == uint256(uint160(token)) ? reserve0 : reserve1;
    return reserve & type(uint112).max;
}

function _callToken(address token, bytes memory data, uint256 gasCap) returns (bool ok, bytes memory revertData) {
    (bool success, bytes memory ret) = token.call{gas: gasCap}(data);
    if (!success) return (false, ret);
    if (ret.length == 0 || (ret.length >= 32 && abi.decode(ret, (uint256)) != 0)) return (true, "");
    return (false, abi.encodeWithSignature("Error(string)", "token returned false"));
}

function _balanceOf(address token, address holder) view returns (uint256) {
    return _uintCall(token, abi.encodeWithSelector(BALANCE_OF, holder));
}

// A read (balanceOf, totalSupply) gets half the gas left, so that one which burns all it is given
// (a balanceOf that spins for the owner) leaves the call being measured half of it, not a
// sixty-fourth. Half, not a fixed figure: a token cannot tell the read from any other by its gas,
// and a heavy honest read (a reflection token's, a sum over many slots) still has room.
function _uintCall(address target, bytes memory data) view returns (uint256) {
    (bool success, bytes memory ret) = target.staticcall{gas: gasleft() / 2}(data);
    if (!success || ret.length < 32) return 0;
    return abi.decode(ret, (uint256));
}

// What a balance lost; nothing when it grew (a reflection paid to the sender meanwhile).
function _decrease(uint256 before, uint256 afterwards) pure returns (uint256) {
    return before > afterwards ? before - afterwards : 0;
}

// A token whose balances shrink on their own (rebasing down) must not abort the simulation.
function _increase(uint256 before, uint256 afterwards) pure returns (uint256) {
    return afterwards > before ? afterwards - before : 0;
}

// Derived from the block, so no allowlist can know these wallets in advance.
function _fresh(address self, address token, uint256 salt) view returns (address) {
    return address(uint160(uint256(keccak256(abi.encode(token, block.number, self, salt)))));
}

function _buy(IUniswapV2RouterLike dex, address token, address weth, uint256 amountIn, address to)
    returns (Leg memory leg)
{
    leg.attempted = true;
    leg.amountIn = amountIn;
    address[] memory path = _path(weth, token);
    try dex.getAmountsOut(amountIn, path) returns (uint256[] memory amounts) {
        leg.expected = amounts[1];
    } catch (bytes memory reason) {
        leg.revertData = reason;
        return leg;
    }
    uint256 balanceBefore = _balanceOf(token, to);
    uint256 gasBefore = gasleft();
    try dex.swapExactETHForTokensSupportingFeeOnTransferTokens{value: amountIn}(0, path, to, block.timestamp) {
        leg.ok = true;
    } catch (bytes memory reason) {
        leg.revertData = reason;
    }
    leg.gasUsed = gasBefore - gasleft();
    leg.received = _increase(balanceBefore, _balanceOf(token, to));
}

/// `self` sells `amount` through the router, paid out to itself.
function _sell(address self, IUniswapV2RouterLike dex, address token, address weth, address pair, uint256 amount)
    returns (Leg memory leg)
{
    if (amount == 0) return leg;
    leg.attempted = true;
    leg.amountIn = amount;
    bool approved;
    (approved, leg.revertData) = _callToken(token, abi.encodeWithSelector(APPROVE, address(dex), amount), gasleft());
    if (!approved) return leg;
    address[] memory path = _path(token, weth);
    try dex.getAmountsOut(amount, path) returns (uint256[] memory amounts) {
        leg.expected = amounts[1];
    } catch (bytes memory reason) {
        leg.revertData = reason;
        return leg;
    }
    // What the seller held and had in coin, and the gas left, before the sale (kept in the leg's
    // own fields until the sale is measured: a free function has few stack slots to spare).
    uint256 heldBefore = _balanceOf(token, self);
    leg.received = self.balance;
    leg.gasUsed = gasleft();
    // Sell the way a wallet does, through the router, so the verdict matches what users see.
    try dex.swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, path, self, block.timestamp) {
        leg.ok = true;
    } catch (bytes memory reason) {
        leg.revertData = reason;
    }
    leg.gasUsed -= gasleft();
    leg.received = _increase(leg.received, self.balance);
    // A seller charged more tokens than it sold: the quote is for what it lost.
    uint256 lost = _decrease(heldBefore, _balanceOf(token, self));
    if (leg.ok && lost > amount) leg.expected = (leg.expected * lost) / amount;
    if (!leg.ok) {
        // The router reports any token failure as "TransferHelper: TRANSFER_FROM_FAILED".
        // Repeating the transfer it attempted, from here, surfaces the token's own reason.
        (bool sent, bytes memory tokenError) = _callToken(
            token,
            abi.encodeWithSelector(TRANSFER, pair, amount),
            gasleft()
        );
        if (!sent && tokenError.length != 0) leg.revertData = tokenError;
    }
}

function _path(address from, address to) pure returns (address[] memory path) {
    path = new address[](2);
    path[0] = from;
    path[1] = to;
}
