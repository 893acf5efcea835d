import { type Address, getBase58Decoder, lamports } from '@solana/kit';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';

/** Payers funded per devnet: enough that test files running side by side never share one. */
const SOLANA_PAYERS = 16;
const PAYER_BALANCE = 1_000_000_000n; // 1,000 tokens of 6 decimals
const FEE_PAYER_LAMPORTS = 100_000_000_000n; // 100 SOL
const DECIMALS = 6;

export interface SolanaPaymentsDevnet {
  /** The USDC-like SPL mint (classic token program, 6 decimals). */
  mint: string;
  decimals: number;
  /** The facilitator's fee payer: base58 64-byte secret key (Solana's keypair bytes) and address. */
  feePayer: { address: string; secretKey: string };
  /** Where payments go, and its associated token account (created here). */
  payTo: { address: string; tokenAccount: string };
  /** Token holders without SOL (the facilitator pays the fees), each with PAYER_BALANCE. */
  payers: { address: string; secretKey: string; tokenAccount: string }[];
}

type Send = (instructions: TransactionInstruction[], signers?: Keypair[]) => void;

/**
 * What x402 payments on the Solana devnet need, made by the real token programs: a USDC-like mint,
 * funded payers, the payee's associated token account, and a fee payer with SOL.
 */
export function createPaymentsDevnet(svm: LiteSVM, send: Send, authority: Keypair): SolanaPaymentsDevnet {
  const mint = Keypair.generate();
  send(
    [
      SystemProgram.createAccount({
        fromPubkey: authority.publicKey,
        newAccountPubkey: mint.publicKey,
        space: MINT_SIZE,
        lamports: Number(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))),
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint.publicKey, DECIMALS, authority.publicKey, null),
    ],
    [mint],
  );
  const holders = [Keypair.generate(), ...Array.from({ length: SOLANA_PAYERS }, () => Keypair.generate())];
  const accounts = holders.map((holder) => getAssociatedTokenAddressSync(mint.publicKey, holder.publicKey));
  for (let start = 0; start < holders.length; start += 4) {
    const batch: TransactionInstruction[] = [];
    for (let index = start; index < Math.min(holders.length, start + 4); index++) {
      const holder = holders[index];
      const account = accounts[index];
      if (!holder || !account) continue;
      batch.push(
        createAssociatedTokenAccountIdempotentInstruction(
          authority.publicKey,
          account,
          holder.publicKey,
          mint.publicKey,
        ),
      );
      // The payee starts empty, so its balance is exactly what it was paid.
      if (index > 0)
        batch.push(createMintToInstruction(mint.publicKey, account, authority.publicKey, PAYER_BALANCE));
    }
    send(batch);
  }
  const feePayer = Keypair.generate();
  svm.airdrop(feePayer.publicKey.toBase58() as Address, lamports(FEE_PAYER_LAMPORTS));
  const secret = (keypair: Keypair) => getBase58Decoder().decode(keypair.secretKey);
  const [payee, ...payers] = holders;
  const [payeeAccount, ...payerAccounts] = accounts;
  if (!payee || !payeeAccount) throw new Error('no payee');
  return {
    mint: mint.publicKey.toBase58(),
    decimals: DECIMALS,
    feePayer: { address: feePayer.publicKey.toBase58(), secretKey: secret(feePayer) },
    payTo: { address: payee.publicKey.toBase58(), tokenAccount: payeeAccount.toBase58() },
    payers: payers.map((payer, index) => ({
      address: payer.publicKey.toBase58(),
      secretKey: secret(payer),
      tokenAccount: payerAccounts[index]?.toBase58() ?? '',
    })),
  };
}
