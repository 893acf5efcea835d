import { createServer, type Server } from 'node:http';

interface RpcCall {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

/** Methods that read state at a block, and where their block parameter is. */
const STATE_READS: Record<string, number> = {
  eth_getCode: 1,
  eth_getBalance: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
};

export interface PrunedRpcOptions {
  /** State older than this many blocks behind the head is gone, as on a full (non-archive) node. */
  keepBlocks: number;
  /** eth_getLogs over a wider range is refused, as public providers cap it. */
  maxLogRange: number;
}

/**
 * A JSON-RPC proxy in front of a real node that answers like a pruned public provider: state
 * reads at old blocks fail the way anvil answers them without the history, and eth_getLogs over a
 * wide range is refused. Everything else reaches the node. Batches are answered call by call.
 */
export async function startPrunedRpc(
  upstream: string,
  options: PrunedRpcOptions,
): Promise<{ url: string; refused: () => number; close(): Promise<void> }> {
  let refused = 0;
  const call = async (body: unknown): Promise<unknown> => {
    const response = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return response.json();
  };
  const head = async () =>
    BigInt(((await call({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' })) as { result: string }).result);

  const answer = async (request: RpcCall): Promise<unknown> => {
    const fault = await faultOf(request);
    if (!fault) return call(request);
    refused++;
    return { jsonrpc: '2.0', id: request.id, error: fault };
  };
  const faultOf = async (request: RpcCall): Promise<{ code: number; message: string } | undefined> => {
    const params = request.params ?? [];
    if (request.method === 'eth_getLogs') {
      const filter = params[0] as { fromBlock?: string; toBlock?: string } | undefined;
      const latest = await head();
      const from = toBlock(filter?.fromBlock, latest);
      const to = toBlock(filter?.toBlock, latest);
      if (to - from + 1n > BigInt(options.maxLogRange))
        return { code: -32005, message: `eth_getLogs is limited to a ${options.maxLogRange} blocks range` };
      return undefined;
    }
    const at = STATE_READS[request.method];
    if (at === undefined) return undefined;
    const tag = params[at];
    if (typeof tag !== 'string' || !tag.startsWith('0x')) return undefined;
    const latest = await head();
    if (latest - BigInt(tag) <= BigInt(options.keepBlocks)) return undefined;
    return {
      code: -32602,
      message: `BlockOutOfRangeError: block height is ${latest} but requested was ${BigInt(tag)}`,
    };
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
        const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(result));
      })().catch(() => {
        response.writeHead(502);
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toBlock(tag: string | undefined, latest: bigint): bigint {
  return tag === undefined || !tag.startsWith('0x') ? latest : BigInt(tag);
}
