import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Address, getBase58Encoder } from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { SOLANA_DEVNET_GENESIS_HASH } from '../../../core/chains/registry.ts';
import { RpcFailure, transactionMethods } from './txMethods.ts';

/** Token account layout (both token programs): mint, owner, amount. */
const TOKEN_ACCOUNT_SIZE = 165;
const MAX_BODY_BYTES = 1_000_000;

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown[];
}

interface Filter {
  dataSize?: number;
  memcmp?: { offset: number; bytes: string; encoding?: string };
}

interface Slice {
  offset: number;
  length: number;
}

/**
 * A JSON-RPC front for a LiteSVM instance: the read methods the scanner's @solana/web3.js code
 * calls (and getGenesisHash, which the provider pool checks), and the transaction methods x402
 * payments need (txMethods.ts: simulate, send, statuses), over HTTP, batches included. The
 * response envelopes are written here; every account byte inside them is LiteSVM's, written by
 * the real token programs. Accounts are served base64-encoded only (no jsonParsed).
 */
export async function startSolanaRpc(
  svm: LiteSVM,
  options: { port?: number; host?: string } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const slot = () => Number(svm.getClock().slot);
  const context = () => ({ context: { slot: slot(), apiVersion: '2.2.0' } });
  const encode = (address: string, slice?: Slice) => {
    const account = svm.getAccount(address as Address);
    if (!account.exists) return null;
    const data = slice ? account.data.slice(slice.offset, slice.offset + slice.length) : account.data;
    return {
      data: [Buffer.from(data).toString('base64'), 'base64'],
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: account.programAddress,
      rentEpoch: 0,
      space: account.data.length,
    };
  };
  const tokenAmount = (amount: bigint, decimals: number) => ({
    amount: amount.toString(),
    decimals,
    uiAmount: Number(amount) / 10 ** decimals,
    uiAmountString: (Number(amount) / 10 ** decimals).toString(),
  });
  const mintOf = (address: string) => {
    const account = svm.getAccount(address as Address);
    if (!account.exists || account.data.length < 82)
      throw new RpcFailure(-32602, 'Invalid param: not a Token mint');
    const data = Buffer.from(account.data);
    return { program: account.programAddress, supply: data.readBigUInt64LE(36), decimals: data[44] ?? 0 };
  };
  const tokenAccounts = (mint: string, program: string) => {
    const key = Buffer.from(getBase58Encoder().encode(mint));
    return svm
      .getProgramAccounts(program as Address)
      .filter(
        (account) =>
          account.data.length >= TOKEN_ACCOUNT_SIZE && Buffer.from(account.data.slice(0, 32)).equals(key),
      )
      .map((account) => ({ address: account.address, amount: Buffer.from(account.data).readBigUInt64LE(64) }))
      .sort((a, b) => (a.amount === b.amount ? 0 : a.amount > b.amount ? -1 : 1));
  };
  const matches = (
    data: { length: number; slice(start: number, end: number): ArrayLike<number> },
    filter: Filter,
  ) => {
    if (filter.dataSize !== undefined) return data.length === filter.dataSize;
    if (filter.memcmp) {
      const bytes =
        filter.memcmp.encoding === 'base64'
          ? Buffer.from(filter.memcmp.bytes, 'base64')
          : Buffer.from(getBase58Encoder().encode(filter.memcmp.bytes));
      return Buffer.from(
        Array.from(data.slice(filter.memcmp.offset, filter.memcmp.offset + bytes.length)),
      ).equals(bytes);
    }
    return true;
  };

  const methods: Record<string, (params: unknown[]) => unknown> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    getGenesisHash: () => SOLANA_DEVNET_GENESIS_HASH,
    getSlot: () => slot(),
    getBalance: ([address]) => ({
      ...context(),
      value: Number(svm.getBalance(String(address) as Address) ?? 0n),
    }),
    getLatestBlockhash: () => ({
      ...context(),
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: slot() + 150 },
    }),
    getMinimumBalanceForRentExemption: ([size]) =>
      Number(svm.minimumBalanceForRentExemption(BigInt(Number(size)))),
    getAccountInfo: ([address, config]) => ({
      ...context(),
      value: encode(String(address), (config as { dataSlice?: Slice } | undefined)?.dataSlice),
    }),
    getMultipleAccounts: ([addresses, config]) => ({
      ...context(),
      value: (addresses as string[]).map((address) =>
        encode(address, (config as { dataSlice?: Slice } | undefined)?.dataSlice),
      ),
    }),
    getProgramAccounts: ([program, config]) => {
      const {
        filters = [],
        dataSlice,
        withContext,
      } = (config ?? {}) as { filters?: Filter[]; dataSlice?: Slice; withContext?: boolean };
      const value = svm
        .getProgramAccounts(String(program) as Address)
        .filter((account) => filters.every((filter) => matches(account.data, filter)))
        .map((account) => ({ pubkey: account.address, account: encode(account.address, dataSlice) }));
      return withContext ? { ...context(), value } : value;
    },
    getTokenSupply: ([mint]) => {
      const { supply, decimals } = mintOf(String(mint));
      return { ...context(), value: tokenAmount(supply, decimals) };
    },
    getTokenLargestAccounts: ([mint]) => {
      const { program, decimals } = mintOf(String(mint));
      return {
        ...context(),
        value: tokenAccounts(String(mint), program)
          .slice(0, 20)
          .map((entry) => ({ address: entry.address, ...tokenAmount(entry.amount, decimals) })),
      };
    },
    ...transactionMethods(svm, context),
  };

  const answer = (request: RpcRequest) => {
    const method = request.method === undefined ? undefined : methods[request.method];
    if (!method)
      return {
        jsonrpc: '2.0',
        id: request.id ?? null,
        error: { code: -32601, message: `Method not found: ${String(request.method)}` },
      };
    try {
      return { jsonrpc: '2.0', id: request.id ?? null, result: method(request.params ?? []) };
    } catch (error) {
      const code = error instanceof RpcFailure ? error.code : -32603;
      const data = error instanceof RpcFailure && error.data !== undefined ? { data: error.data } : {};
      return {
        jsonrpc: '2.0',
        id: request.id ?? null,
        error: { code, message: error instanceof Error ? error.message : String(error), ...data },
      };
    }
  };

  const server = createServer((request, response) => {
    void readBody(request).then(
      (body) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          response.writeHead(400).end();
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify(
            Array.isArray(parsed)
              ? parsed.map((entry) => answer(entry as RpcRequest))
              : answer(parsed as RpcRequest),
          ),
        );
      },
      () => response.writeHead(413).end(),
    );
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
