import type { AbiEvent, Address, GetLogsReturnType, PublicClient } from 'viem';

export interface ReadLogsParameters<E extends AbiEvent> {
  address: Address | Address[];
  event: E;
  args?: Record<string, unknown>;
  fromBlock: bigint;
  toBlock: bigint;
  /** Blocks per request. */
  chunk: number;
  /** Stop after this many logs. */
  maxLogs: number;
}

export interface ReadLogsReturnType<E extends AbiEvent> {
  logs: GetLogsReturnType<E, [E], true>;
  fromBlock: bigint;
  toBlock: bigint;
  /** False when maxLogs stopped the scan before toBlock: what follows it was not seen. */
  complete: boolean;
}

/**
 * Event logs over a block range in chunks (providers cap eth_getLogs ranges), chunks fetched
 * together, stopping at maxLogs so a busy token costs a bounded amount.
 */
export async function readLogs<const E extends AbiEvent>(
  client: PublicClient,
  parameters: ReadLogsParameters<E>,
): Promise<ReadLogsReturnType<E>> {
  const { fromBlock, toBlock, chunk, maxLogs } = parameters;
  const ranges: [bigint, bigint][] = [];
  for (let start = fromBlock; start <= toBlock; start += BigInt(chunk)) {
    const end = start + BigInt(chunk) - 1n;
    ranges.push([start, end > toBlock ? toBlock : end]);
  }
  type Logs = GetLogsReturnType<E, [E], true>;
  // viem's getLogs types its answer from literal arguments; this helper is generic over the event.
  const getLogs = (args: Record<string, unknown>): Promise<Logs> =>
    client.getLogs(args) as unknown as Promise<Logs>;
  const logs = [] as unknown as Logs;
  // A few chunks at a time: enough to overlap round trips without flooding a provider.
  for (let i = 0; i < ranges.length; i += 4) {
    const batch = await Promise.all(
      ranges.slice(i, i + 4).map(([from, to]) =>
        getLogs({
          address: parameters.address,
          event: parameters.event,
          ...(parameters.args ? { args: parameters.args } : {}),
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      ),
    );
    for (const part of batch) logs.push(...part);
    if (logs.length >= maxLogs)
      return {
        logs: logs.slice(0, maxLogs),
        fromBlock,
        toBlock,
        complete: false,
      };
  }
  return { logs, fromBlock, toBlock, complete: true };
}
