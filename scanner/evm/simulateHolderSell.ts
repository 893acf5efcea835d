import {
  type Address,
  BaseError,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
  keccak256,
  encodeAbiParameters,
  maxUint256,
  pad,
  parseAbi,
  type PublicClient,
  getAddress,
  slice,
} from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { type DetectorLeg, toLeg } from './detectorLeg.ts';
import { HONEYPOT_DETECTOR_CODE, honeypotDetectorAbi } from './honeypotDetector.ts';

/** Gas for each of the sell's own transactions (the approval, a sale, the token's own send). */
const HOLDER_SELL_GAS = 5_000_000n;
/** Gas for each read between them. */
const READ_GAS = 1_000_000n;

/**
 * Runtime code of a reader of native balances, put at READER_ADDRESS for the simulation: it
 * answers BALANCE of the address in its calldata's first word. Twelve bytes written by hand
 * (PUSH1 0, CALLDATALOAD, BALANCE, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN): no standard
 * contract reads a balance on every chain (Multicall3 is not deployed everywhere, nor on a
 * devnet), and an eth_simulateV1 call can only read through a contract.
 */
const BALANCE_READER_CODE: Hex = '0x6000353160005260206000f3';
/** Derived from keccak256("vigil.balance-reader"), so it holds nothing on any real chain. */
const READER_ADDRESS: Address = getAddress(
  slice(keccak256(new TextEncoder().encode('vigil.balance-reader')), 12),
);

const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
]);

/** How a holder's sale was simulated: see simulateHolderSell. */
type HolderSellSeller = 'wallet' | 'code_at_holder';

export interface HolderSell extends DetectorLeg {
  /**
   * `wallet`: as the holder's own transactions, its address without code, as a person's wallet
   * is (eth_simulateV1). `code_at_holder`: the detector's code put at the holder's address, on a
   * node without eth_simulateV1; a token that treats senders with code apart can fail this one.
   */
  seller: HolderSellSeller;
}

interface SellParameters {
  /** A Uniswap V2 style router, its wrapped native coin and the token's pair with it. */
  router: Address;
  weth: Address;
  pair: Address;
  token: Address;
  holder: Address;
  /** What the holder holds at the block: the sale is of all of it. */
  held: bigint;
  blockNumber: bigint;
  /** The gas price the sell pays (simulationGasPrice); zero when omitted. */
  gasPrice?: bigint | undefined;
}

/**
 * Sells everything a real holder holds, through the router, as that holder, without sending
 * anything. Catches tokens that let a fresh wallet trade but trap the wallets that actually bought
 * (blacklisted buyers, per-holder taxes). The holder's own transactions (its approval of the
 * router, the sale) run in one simulated block with eth_simulateV1, its address keeping no code,
 * so a token that refuses or drops what an address with code sends treats it as the person it is;
 * where everything fails, 90 % is tried, as the round trip does. A node without eth_simulateV1
 * gets the detector's code at the holder's address for one eth_call instead (`seller` says which).
 */
export async function simulateHolderSell(
  client: PublicClient,
  parameters: SellParameters,
): Promise<HolderSell> {
  try {
    return { ...(await sellAsWallet(client, parameters)), seller: 'wallet' };
  } catch (error) {
    if (isRpcUnreachable(error)) throw sellError(parameters.holder, error);
  }
  try {
    return { ...(await sellWithCode(client, parameters)), seller: 'code_at_holder' };
  } catch (error) {
    throw sellError(parameters.holder, error);
  }
}

function sellError(holder: Address, error: unknown): Error {
  const reason = error instanceof BaseError ? error.shortMessage : String(error);
  return new Error(`holder sell simulation for ${holder} failed: ${reason}`, { cause: error });
}

interface SimulatedCall {
  status: Hex;
  returnData: Hex;
  gasUsed: Hex;
}

const hex = (value: bigint): Hex => `0x${value.toString(16)}`;

async function sellAsWallet(
  client: PublicClient,
  { router, weth, pair, token, holder, held, blockNumber, gasPrice }: SellParameters,
): Promise<DetectorLeg> {
  const empty = {
    attempted: false,
    ok: false,
    amountIn: 0n,
    expected: 0n,
    received: 0n,
    gasUsed: 0n,
    revertData: '0x' as Hex,
  };
  if (held === 0n) return toLeg(empty);
  const path = [token, weth] as const;
  const partial = (held * 9n) / 10n;
  // The sale's coin goes to a fresh address, so what arrived is its balance alone (the holder's
  // own balance also pays the gas).
  const payee = getAddress(
    slice(
      keccak256(
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }],
          [token, holder, blockNumber],
        ),
      ),
      12,
    ),
  );
  const read = (to: Address, data: Hex) => ({ from: holder, to, data, gas: READ_GAS });
  const send = (to: Address, data: Hex) => ({ from: holder, to, data, gas: HOLDER_SELL_GAS });
  const quote = (amount: bigint) =>
    read(router, encodeFunctionData({ abi: routerAbi, functionName: 'getAmountsOut', args: [amount, path] }));
  const sale = (amount: bigint) =>
    send(
      router,
      encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForETHSupportingFeeOnTransferTokens',
        args: [amount, 0n, path, payee, maxUint256],
      }),
    );
  const heldNow = read(
    token,
    encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] }),
  );
  const paid = read(READER_ADDRESS, pad(payee));
  // A sale of `amount`, with what it is measured by: the router's quote, the payee's coin before
  // and after, and what the holder holds after.
  const SALE = { quote: 0, paidBefore: 1, sold: 2, paidAfter: 3, heldAfter: 4 } as const;
  const saleSteps = (amount: bigint) => [quote(amount), paid, sale(amount), paid, heldNow];
  // Every call is one of the holder's transactions, in this order, on the state the earlier ones
  // left: a sale that reverted left nothing, so the 90 % one starts where the whole one did.
  const APPROVAL = 0;
  const WHOLE = 1;
  const PART = WHOLE + 5;
  const TOKEN_SEND = PART + 5;
  const calls = [
    send(token, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] })),
    ...saleSteps(held),
    ...saleSteps(partial),
    // Where the sales failed, the router says only "TRANSFER_FROM_FAILED": the send it attempted,
    // made by the holder itself, says the token's own reason.
    send(token, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair, held] })),
  ];
  const price = gasPrice ? { gasPrice: hex(gasPrice) } : {};
  const gasLimit = calls.reduce((sum, call) => sum + call.gas, 0n);
  const request = client.request as (args: {
    method: string;
    params: unknown[];
  }) => Promise<{ calls: SimulatedCall[] }[]>;
  const [block] = await request({
    method: 'eth_simulateV1',
    params: [
      {
        blockStateCalls: [
          {
            blockOverrides: { gasLimit: hex(gasLimit) },
            stateOverrides: {
              [READER_ADDRESS]: { code: BALANCE_READER_CODE },
              // The gas is paid from a balance given to the holder; the sale's coin is read at the payee.
              ...(gasPrice ? { [holder]: { balance: hex(gasLimit * gasPrice) } } : {}),
            },
            calls: calls.map(({ gas, ...call }) => ({ ...call, gas: hex(gas), ...price })),
          },
        ],
        validation: false,
      },
      hex(blockNumber),
    ],
  });
  const answered = block?.calls ?? [];
  if (answered.length !== calls.length)
    throw new Error('eth_simulateV1 answered fewer calls than it was sent');
  const at = (index: number): SimulatedCall => answered[index] as SimulatedCall;
  const ok = (index: number) => at(index).status === '0x1';
  const word = (index: number) =>
    ok(index) && at(index).returnData.length >= 66 ? hexToBigInt(slice(at(index).returnData, 0, 32)) : 0n;
  const quoted = (index: number) =>
    ok(index)
      ? (decodeFunctionResult({
          abi: routerAbi,
          functionName: 'getAmountsOut',
          data: at(index).returnData,
        })[1] ?? 0n)
      : 0n;
  const tokenReason = ok(TOKEN_SEND) ? undefined : at(TOKEN_SEND).returnData;
  const leg = (amount: bigint, first: number) => {
    const step = (name: keyof typeof SALE) => first + SALE[name];
    const refused = !ok(APPROVAL) ? APPROVAL : !ok(step('quote')) ? step('quote') : undefined;
    if (refused !== undefined)
      return toLeg({ ...empty, attempted: true, amountIn: amount, revertData: at(refused).returnData });
    const done = ok(step('sold'));
    let expected = quoted(step('quote'));
    // A seller charged more tokens than it sold: the quote is for what it lost. (Before either
    // sale the holder held `held`: the 90 % one runs only where the whole one reverted.)
    const lost = held > word(step('heldAfter')) ? held - word(step('heldAfter')) : 0n;
    if (done && lost > amount) expected = (expected * lost) / amount;
    const [before, after] = [word(step('paidBefore')), word(step('paidAfter'))];
    return toLeg({
      attempted: true,
      ok: done,
      amountIn: amount,
      expected,
      received: after > before ? after - before : 0n,
      gasUsed: hexToBigInt(at(step('sold')).gasUsed),
      revertData: done
        ? '0x'
        : tokenReason && tokenReason !== '0x'
          ? tokenReason
          : at(step('sold')).returnData,
    });
  };
  const whole = leg(held, WHOLE);
  if (whole.ok || !ok(APPROVAL)) return whole;
  const part = leg(partial, PART);
  // Like the round trip: a token that only forbids selling everything is not a trap.
  return part.ok ? part : whole;
}

/** The detector's code at the holder's address for one eth_call: for nodes without eth_simulateV1. */
async function sellWithCode(
  client: PublicClient,
  { router, token, holder, blockNumber, gasPrice }: SellParameters,
): Promise<DetectorLeg> {
  const { data } = await client.call({
    account: holder,
    to: holder,
    data: encodeFunctionData({ abi: honeypotDetectorAbi, functionName: 'sellAll', args: [router, token] }),
    gas: HOLDER_SELL_GAS,
    // At a price, the holder pays for the gas: a balance for it is given (the sell's proceeds are
    // measured as a difference, so the holder's real balance does not matter).
    ...(gasPrice ? { gasPrice } : {}),
    stateOverride: [
      {
        address: holder,
        code: HONEYPOT_DETECTOR_CODE,
        ...(gasPrice ? { balance: HOLDER_SELL_GAS * gasPrice + 10n ** 18n } : {}),
      },
    ],
    blockNumber,
  });
  if (data === undefined) throw new Error('the call returned no data');
  return toLeg(decodeFunctionResult({ abi: honeypotDetectorAbi, functionName: 'sellAll', data }));
}
