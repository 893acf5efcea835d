import { type Address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  AccountState,
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeDefaultAccountStateInstruction,
  createInitializeMetadataPointerInstruction,
  createInitializeMint2Instruction,
  createInitializeMintCloseAuthorityInstruction,
  createInitializeNonTransferableMintInstruction,
  createInitializePermanentDelegateInstruction,
  createInitializeTransferFeeConfigInstruction,
  createInitializeTransferHookInstruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  createThawAccountInstruction,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getMintLen,
  LENGTH_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  TYPE_SIZE,
} from '@solana/spl-token';
import {
  createInitializeInstruction,
  createUpdateAuthorityInstruction,
  pack,
} from '@solana/spl-token-metadata';
import { Keypair, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import type { ExpectedVerdict } from '../scenarioSchema.ts';
import { MINT_SPECS, type MintKey, type MintSpec } from './mints.ts';
import { createPaymentsDevnet, type SolanaPaymentsDevnet } from './payments.ts';
import { startSolanaRpc } from './rpcFront.ts';

const SUPPLY = 1_000_000_000_000n;
const HOLDERS = { default: 30, concentrated: 30, few: 3 } as const;
/** Holders per transaction: an ATA creation and a mint each, within the transaction size limit. */
const PER_TX = 5;

interface SolanaDevnetMint {
  address: string;
  expected: Pick<ExpectedVerdict, 'tier' | 'flags'>;
}

export interface SolanaDevnet {
  svm: LiteSVM;
  url: string;
  mints: Record<MintKey, SolanaDevnetMint>;
  /** x402 payments: a USDC-like mint, funded payers, the payee and the facilitator's fee payer. */
  payments: SolanaPaymentsDevnet;
  close(): Promise<void>;
}

/**
 * A local Solana devnet: LiteSVM (the real SPL Token and Token-2022 programs, in process) with
 * the mints of mints.ts, behind a JSON-RPC front so @solana/web3.js talks to it over HTTP as it
 * would to a cluster. Transactions are built with @solana/spl-token and executed by the programs,
 * so every account byte the scanner reads was written by them.
 */
export async function startSolanaDevnet(options: { port?: number } = {}): Promise<SolanaDevnet> {
  const svm = new LiteSVM();
  const payer = Keypair.generate();
  svm.airdrop(payer.publicKey.toBase58() as Address, lamports(1_000_000_000_000n));
  const send = (instructions: TransactionInstruction[], signers: Keypair[] = []) => {
    const tx = new Transaction().add(...instructions);
    tx.recentBlockhash = svm.latestBlockhash();
    tx.feePayer = payer.publicKey;
    tx.sign(payer, ...signers);
    const result = svm.sendTransaction(getTransactionDecoder().decode(tx.serialize()));
    if (result instanceof FailedTransactionMetadata)
      throw new Error(`solana devnet tx failed: ${String(result.err())}\n${result.meta().logs().join('\n')}`);
    // LiteSVM, like a cluster, rejects a byte-identical transaction under the same blockhash.
    svm.expireBlockhash();
  };
  const mints = {} as Record<MintKey, SolanaDevnetMint>;
  for (const [key, spec] of Object.entries(MINT_SPECS) as [MintKey, MintSpec][]) {
    mints[key] = { address: createMint(svm, send, payer, key, spec), expected: spec.expected };
  }
  const payments = createPaymentsDevnet(svm, send, payer);
  const rpc = await startSolanaRpc(svm, options.port === undefined ? {} : { port: options.port });
  return { svm, url: rpc.url, mints, payments, close: () => rpc.close() };
}

type Send = (instructions: TransactionInstruction[], signers?: Keypair[]) => void;

function createMint(svm: LiteSVM, send: Send, payer: Keypair, key: string, spec: MintSpec): string {
  const mint = Keypair.generate();
  const programId = spec.program === 'token-2022' ? TOKEN_2022_PROGRAM_ID : TOKEN_PROGRAM_ID;
  const authority = payer.publicKey;
  const extensions: ExtensionType[] = [];
  if (spec.transferFee) extensions.push(ExtensionType.TransferFeeConfig);
  if (spec.permanentDelegate) extensions.push(ExtensionType.PermanentDelegate);
  if (spec.transferHook) extensions.push(ExtensionType.TransferHook);
  if (spec.nonTransferable) extensions.push(ExtensionType.NonTransferable);
  if (spec.defaultFrozen) extensions.push(ExtensionType.DefaultAccountState);
  if (spec.closeAuthority) extensions.push(ExtensionType.MintCloseAuthority);
  if (spec.metadata) extensions.push(ExtensionType.MetadataPointer);
  const space = getMintLen(extensions);
  const metadata = {
    mint: mint.publicKey,
    name: `Devnet ${key}`,
    symbol: key.slice(0, 10).toUpperCase(),
    uri: '',
    additionalMetadata: [] as [string, string][],
    updateAuthority: authority,
  };
  // The metadata instruction grows the account: fund the final size up front.
  const funded = spec.metadata ? space + TYPE_SIZE + LENGTH_SIZE + pack(metadata).length : space;
  const init: TransactionInstruction[] = [
    SystemProgram.createAccount({
      fromPubkey: payer.publicKey,
      newAccountPubkey: mint.publicKey,
      space,
      lamports: Number(svm.minimumBalanceForRentExemption(BigInt(funded))),
      programId,
    }),
  ];
  if (spec.transferFee)
    init.push(
      createInitializeTransferFeeConfigInstruction(
        mint.publicKey,
        spec.transferFee.authority ? authority : null,
        authority,
        spec.transferFee.bps,
        10n ** 15n,
        programId,
      ),
    );
  if (spec.permanentDelegate)
    init.push(createInitializePermanentDelegateInstruction(mint.publicKey, authority, programId));
  if (spec.transferHook)
    init.push(
      createInitializeTransferHookInstruction(
        mint.publicKey,
        authority,
        Keypair.generate().publicKey,
        programId,
      ),
    );
  if (spec.nonTransferable)
    init.push(createInitializeNonTransferableMintInstruction(mint.publicKey, programId));
  if (spec.defaultFrozen)
    init.push(createInitializeDefaultAccountStateInstruction(mint.publicKey, AccountState.Frozen, programId));
  if (spec.closeAuthority)
    init.push(createInitializeMintCloseAuthorityInstruction(mint.publicKey, authority, programId));
  if (spec.metadata)
    init.push(
      createInitializeMetadataPointerInstruction(mint.publicKey, authority, mint.publicKey, programId),
    );
  init.push(createInitializeMint2Instruction(mint.publicKey, spec.decimals, authority, authority, programId));
  if (spec.metadata) {
    init.push(
      createInitializeInstruction({
        programId,
        metadata: mint.publicKey,
        updateAuthority: authority,
        mint: mint.publicKey,
        mintAuthority: authority,
        name: metadata.name,
        symbol: metadata.symbol,
        uri: '',
      }),
    );
    if (!spec.metadata.mutable)
      init.push(
        createUpdateAuthorityInstruction({
          programId,
          metadata: mint.publicKey,
          oldAuthority: authority,
          newAuthority: null,
        }),
      );
  }
  send(init, [mint]);

  const count = HOLDERS[spec.holders];
  const amounts = Array.from({ length: count }, (_, index) =>
    spec.holders === 'concentrated'
      ? index === 0
        ? (SUPPLY * 9n) / 10n
        : SUPPLY / 10n / BigInt(count - 1)
      : SUPPLY / BigInt(count),
  );
  for (let start = 0; start < count; start += PER_TX) {
    const batch: TransactionInstruction[] = [];
    for (let index = start; index < Math.min(count, start + PER_TX); index++) {
      const owner = Keypair.generate().publicKey;
      const ata = getAssociatedTokenAddressSync(mint.publicKey, owner, false, programId);
      batch.push(
        createAssociatedTokenAccountIdempotentInstruction(
          payer.publicKey,
          ata,
          owner,
          mint.publicKey,
          programId,
        ),
      );
      if (spec.defaultFrozen)
        batch.push(createThawAccountInstruction(ata, mint.publicKey, authority, [], programId));
      batch.push(
        createMintToInstruction(mint.publicKey, ata, authority, amounts[index] ?? 0n, [], programId),
      );
    }
    send(batch);
  }
  const revoke: TransactionInstruction[] = [];
  if (!spec.keepMintAuthority)
    revoke.push(
      createSetAuthorityInstruction(mint.publicKey, authority, AuthorityType.MintTokens, null, [], programId),
    );
  if (!spec.keepFreezeAuthority)
    revoke.push(
      createSetAuthorityInstruction(
        mint.publicKey,
        authority,
        AuthorityType.FreezeAccount,
        null,
        [],
        programId,
      ),
    );
  if (revoke.length > 0) send(revoke);
  return mint.publicKey.toBase58();
}
