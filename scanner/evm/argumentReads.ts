import { type Address, type Hex, numberToHex, type PublicClient } from 'viem';

/**
 * Functions that read no argument, for one caller at one block: a call that ran to its end (no
 * revert) in whose own frame nothing read calldata but its selector's word (no CALLDATALOAD but at
 * 0, no CALLDATACOPY) took a path no argument word could change, so that caller's calls of it at
 * that block make the same call whatever their shape. Power discovery simulates one of them and
 * gives its effect to the others (discoverPowers' runAt). A getter, a renounce, an "openTrading" or
 * a "manualSwap" is otherwise made in some 30 shapes at the block, each simulation with the
 * holder's trades after it.
 *
 * Only a call that ran to its end counts: a function that reverts at a gate before it reads its
 * arguments (solc reads a calldata struct's fields only where they are used) has read none on that
 * path, and another caller passes the gate. The trace is debug_traceCall with a JavaScript tracer
 * (geth's tracer API, which geth, erigon, reth and anvil run) that keeps two flags. Hand-written
 * because no library says which calldata a call read. Whatever fails (no debug_traceCall, a trace
 * out of time) counts as reading arguments: every shape is then simulated.
 *
 * Limit, kept in docs/risk-model.md: calldata's length is not counted as read (every function's
 * decoder asks for it), so a function told apart only by the length of its calldata is made once
 * at the block; any length none of the shapes has hides such a function anyway.
 */
const ARGUMENT_TRACER = `{
  r: 0, x: 0,
  step: function (log) {
    if (log.getDepth() !== 1) return;
    var op = log.op.toString();
    if (op === 'CALLDATACOPY') this.r = 1;
    else if (op === 'CALLDATALOAD' && log.stack.peek(0).toString(16) !== '0') this.r = 1;
    else if (op === 'REVERT' || op === 'INVALID') this.x = 1;
  },
  fault: function (log) { if (log.getDepth() === 1) this.x = 1; },
  result: function (ctx) { return { r: this.r, x: this.x || (ctx && ctx.error ? 1 : 0) }; }
}`;

/** Gas a traced call may burn: the function as its caller runs it, short of a runaway loop. */
const TRACE_GAS = 1_000_000n;
const TRACE_TIMEOUT = '2s';
const TRACES_PER_BATCH = 8;
const TRACED_WORDS = 16;

/**
 * The selectors of `token` whose call by `from` at `blockNumber` read no argument, each traced with
 * its selector and TRACED_WORDS non-zero words.
 */
export async function argumentlessSelectors(
  client: PublicClient,
  {
    token,
    from,
    selectors,
    blockNumber,
  }: { token: Address; from: Address; selectors: readonly Hex[]; blockNumber: bigint },
): Promise<Set<Hex>> {
  const request = client.request as unknown as (args: {
    method: string;
    params: unknown[];
  }) => Promise<unknown>;
  // More words than any argument shape has: a decoder that checks the calldata's length before it
  // reads (solc's, for a function of many arguments) passes that check and reads.
  const words = Array.from({ length: TRACED_WORDS }, (_, index) =>
    (index + 1).toString(16).padStart(64, '0'),
  ).join('');
  const found = new Set<Hex>();
  for (let start = 0; start < selectors.length; start += TRACES_PER_BATCH) {
    const batch = selectors.slice(start, start + TRACES_PER_BATCH);
    const answers = await Promise.all(
      batch.map((selector) =>
        Promise.resolve()
          .then(() =>
            request({
              method: 'debug_traceCall',
              params: [
                { from, to: token, data: `${selector}${words}`, gas: numberToHex(TRACE_GAS) },
                numberToHex(blockNumber),
                { tracer: ARGUMENT_TRACER, timeout: TRACE_TIMEOUT },
              ],
            }),
          )
          .catch(() => undefined),
      ),
    );
    answers.forEach((answer, index) => {
      const selector = batch[index];
      const { r, x } = (answer ?? {}) as { r?: unknown; x?: unknown };
      if (selector && r === 0 && x === 0) found.add(selector);
    });
    // A node that cannot trace says so on the first batch.
    if (start === 0 && answers.every((answer) => answer === undefined)) break;
  }
  return found;
}
