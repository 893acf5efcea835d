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

/// Buys a token with ETH, passes part of it to a fresh wallet, and sells the rest, all inside
/// one eth_call. It is never deployed: the caller injects this runtime code and the ETH to spend
/// with a state override, so it runs against any RPC that supports overrides and leaves no trace.
/// Every step catches its own failure, so one revert never hides what the other legs measured.
contract HoneypotDetector {
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

    struct Result {
        address weth;
        address pair;
        Leg buy;
        Leg transfer;
        Leg sell;
    }

    // Called with low-level calls: many tokens return nothing, or something odd, from these.
    bytes4 private constant TRANSFER = 0xa9059cbb; // transfer(address,uint256)
    bytes4 private constant APPROVE = 0x095ea7b3; // approve(address,uint256)
    bytes4 private constant BALANCE_OF = 0x70a08231; // balanceOf(address)

    function roundTrip(address router, address token, uint256 amountIn) external returns (Result memory r) {
        IUniswapV2RouterLike dex = IUniswapV2RouterLike(router);
        r.weth = dex.WETH();
        r.pair = IUniswapV2FactoryLike(dex.factory()).getPair(token, r.weth);
        if (r.pair == address(0)) return r;
        r.buy = _buy(dex, token, r.weth, amountIn);
        if (!r.buy.ok || r.buy.received == 0) return r;
        r.transfer = _transfer(token, r.buy.received / 4);
        r.sell = _sell(dex, token, r.weth, r.pair, _balanceOf(token, address(this)));
    }

    function _buy(IUniswapV2RouterLike dex, address token, address weth, uint256 amountIn)
        private
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
        uint256 balanceBefore = _balanceOf(token, address(this));
        uint256 gasBefore = gasleft();
        try dex.swapExactETHForTokensSupportingFeeOnTransferTokens{value: amountIn}(
            0, path, address(this), block.timestamp
        ) {
            leg.ok = true;
        } catch (bytes memory reason) {
            leg.revertData = reason;
        }
        leg.gasUsed = gasBefore - gasleft();
        leg.received = _increase(balanceBefore, _balanceOf(token, address(this)));
    }

    function _transfer(address token, uint256 amount) private returns (Leg memory leg) {
        if (amount == 0) return leg;
        leg.attempted = true;
        leg.amountIn = amount;
        leg.expected = amount;
        // Derived from the block, so no allowlist can know the recipient in advance.
        address recipient = address(uint160(uint256(keccak256(abi.encode(token, block.number, address(this))))));
        uint256 balanceBefore = _balanceOf(token, recipient);
        uint256 gasBefore = gasleft();
        (leg.ok, leg.revertData) = _callToken(token, abi.encodeWithSelector(TRANSFER, recipient, amount));
        leg.gasUsed = gasBefore - gasleft();
        leg.received = _increase(balanceBefore, _balanceOf(token, recipient));
    }

    function _sell(IUniswapV2RouterLike dex, address token, address weth, address pair, uint256 amount)
        private
        returns (Leg memory leg)
    {
        if (amount == 0) return leg;
        leg.attempted = true;
        leg.amountIn = amount;
        bool approved;
        (approved, leg.revertData) = _callToken(token, abi.encodeWithSelector(APPROVE, address(dex), amount));
        if (!approved) return leg;
        address[] memory path = _path(token, weth);
        try dex.getAmountsOut(amount, path) returns (uint256[] memory amounts) {
            leg.expected = amounts[1];
        } catch (bytes memory reason) {
            leg.revertData = reason;
            return leg;
        }
        uint256 ethBefore = address(this).balance;
        uint256 gasBefore = gasleft();
        // Sell the way a wallet does, through the router, so the verdict matches what users see.
        try dex.swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, path, address(this), block.timestamp) {
            leg.ok = true;
        } catch (bytes memory reason) {
            leg.revertData = reason;
        }
        leg.gasUsed = gasBefore - gasleft();
        leg.received = _increase(ethBefore, address(this).balance);
        if (!leg.ok) {
            // The router reports any token failure as "TransferHelper: TRANSFER_FROM_FAILED".
            // Repeating the transfer it attempted, from here, surfaces the token's own reason.
            (bool sent, bytes memory tokenError) = _callToken(token, abi.encodeWithSelector(TRANSFER, pair, amount));
            if (!sent && tokenError.length != 0) leg.revertData = tokenError;
        }
    }

    function _callToken(address token, bytes memory data) private returns (bool ok, bytes memory revertData) {
        (bool success, bytes memory ret) = token.call(data);
        if (!success) return (false, ret);
        if (ret.length == 0 || (ret.length >= 32 && abi.decode(ret, (uint256)) != 0)) return (true, "");
        return (false, abi.encodeWithSignature("Error(string)", "token returned false"));
    }

    function _balanceOf(address token, address holder) private view returns (uint256) {
        (bool success, bytes memory ret) = token.staticcall(abi.encodeWithSelector(BALANCE_OF, holder));
        if (!success || ret.length < 32) return 0;
        return abi.decode(ret, (uint256));
    }

    // A token whose balances shrink on their own (rebasing down) must not abort the simulation.
    function _increase(uint256 before, uint256 afterwards) private pure returns (uint256) {
        return afterwards > before ? afterwards - before : 0;
    }

    function _path(address from, address to) private pure returns (address[] memory path) {
        path = new address[](2);
        path[0] = from;
        path[1] = to;
    }

    // Sells through the router pay out ETH here.
    receive() external payable {}
}
