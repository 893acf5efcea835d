import {
  appendTransactionMessageInstruction,
  compileTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { LiteSVM } from 'litesvm';
import { describe, expect, it } from 'vitest';
import { RpcFailure, transactionMethods } from './txMethods.ts';

describe('the Solana devnet’s transaction methods (executed by LiteSVM)', () => {
  const setup = async () => {
    const svm = new LiteSVM();
    const methods = transactionMethods(svm, () => ({ context: { slot: 0, apiVersion: 'test' } }));
    const from = await generateKeyPairSigner();
    const to = await generateKeyPairSigner();
    svm.airdrop(from.address, lamports(1_000_000_000n));
    /** A SOL transfer from `from`, compiled against the devnet's blockhash. */
    const transfer = (amount: bigint) =>
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (message) => setTransactionMessageFeePayer(from.address, message),
          (message) =>
            setTransactionMessageLifetimeUsingBlockhash(
              { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1_000n },
              message,
            ),
          (message) =>
            appendTransactionMessageInstruction(
              getTransferSolInstruction({ source: from, destination: to.address, amount }),
              message,
            ),
        ),
      );
    const call = (method: string, ...params: unknown[]) => {
      const handler = methods[method];
      if (!handler) throw new Error(`no ${method}`);
      return handler(params) as any;
    };
    return { svm, from, to, transfer, call };
  };

  it('sends a signed transaction once: it lands, its status is known, and the same bytes again are refused', async () => {
    const { svm, from, to, transfer, call } = await setup();
    const wire = getBase64EncodedWireTransaction(await signTransaction([from.keyPair], transfer(1_000_000n)));
    const signature = call('sendTransaction', wire, { encoding: 'base64' }) as string;
    expect(svm.getBalance(to.address)).toBe(1_000_000n);
    expect(call('getSignatureStatuses', [signature]).value).toEqual([
      { slot: expect.any(Number), confirmations: null, err: null, confirmationStatus: 'finalized' },
    ]);
    let refused: unknown;
    try {
      call('sendTransaction', wire, { encoding: 'base64' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RpcFailure);
    expect((refused as RpcFailure).data).toMatchObject({ err: 'AlreadyProcessed' });
    expect(svm.getBalance(to.address)).toBe(1_000_000n);
  });

  it('simulates without signatures only when asked, never commits, and spells failures as the RPC does', async () => {
    const { svm, to, transfer, call } = await setup();
    const unsigned = getBase64EncodedWireTransaction(transfer(1_000_000n));
    const simulated = call('simulateTransaction', unsigned, { encoding: 'base64', sigVerify: false });
    expect(simulated.value.err).toBeNull();
    expect(svm.getBalance(to.address) ?? 0n).toBe(0n);
    // Too much: the system program's failure, as {InstructionError: [index, {Custom: code}]}.
    const tooMuch = call('simulateTransaction', getBase64EncodedWireTransaction(transfer(10n ** 12n)), {
      encoding: 'base64',
      sigVerify: false,
    });
    expect(tooMuch.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    // Signature checks are back on for whatever comes next.
    expect(() => call('sendTransaction', unsigned, { encoding: 'base64' })).toThrow();
    expect(
      call('getSignatureStatuses', ['1111111111111111111111111111111111111111111111111111111111111111'])
        .value,
    ).toEqual([null]);
  });
});
