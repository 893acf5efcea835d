import {
  AccountState,
  ExtensionType,
  getDefaultAccountState,
  getMintCloseAuthority,
  getPermanentDelegate,
  getTransferFeeConfig,
  getTransferHook,
  type Mint,
  TOKEN_2022_PROGRAM_ID,
  unpackMint,
} from '@solana/spl-token';
import { type Connection, PublicKey } from '@solana/web3.js';

export interface MintFacts {
  mint: string;
  program: 'spl-token' | 'token-2022';
  /** The slot the account was read at (the RPC's context slot). */
  slot: bigint;
  supply: bigint;
  decimals: number;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Token-2022 extensions by name, read from the TLV area. */
  extensions: string[];
  transferFee: { bps: number; maximumFee: bigint; authority: string | null } | null;
  permanentDelegate: string | null;
  transferHookProgram: string | null;
  nonTransferable: boolean;
  defaultFrozen: boolean;
  closeAuthority: string | null;
  /** Token-2022 metadata extension: present, and its update authority (null: immutable). */
  metadata: { present: boolean; updateAuthority: string | null };
}

const TOKEN_METADATA_EXTENSION = 19;

/**
 * A mint's authorities, supply and Token-2022 extensions from one getAccountInfo. Extension
 * types are read from the TLV area here: @solana/spl-token's getExtensionTypes() throws on mints
 * whose TLV area ends in padding (a real layout), so it is not used.
 */
export async function readMint(
  connection: Connection,
  { mint, slot }: { mint: string; slot: bigint },
): Promise<MintFacts> {
  const key = new PublicKey(mint);
  const { context, value: account } = await connection.getAccountInfoAndContext(key, {
    minContextSlot: Number(slot),
  });
  if (!account) throw new Error(`no account at ${mint}`);
  const programId = account.owner;
  const state: Mint = unpackMint(key, account, programId);
  const types = tlvTypes(state.tlvData);
  const fee = getTransferFeeConfig(state);
  const hook = getTransferHook(state);
  const hookProgram = hook && !hook.programId.equals(PublicKey.default) ? hook.programId.toBase58() : null;
  const metadata = metadataAuthority(state.tlvData);
  return {
    mint: key.toBase58(),
    program: programId.equals(TOKEN_2022_PROGRAM_ID) ? 'token-2022' : 'spl-token',
    slot: BigInt(context.slot),
    supply: state.supply,
    decimals: state.decimals,
    mintAuthority: state.mintAuthority?.toBase58() ?? null,
    freezeAuthority: state.freezeAuthority?.toBase58() ?? null,
    extensions: types.map((type) => ExtensionType[type] ?? `Extension${type}`),
    transferFee: fee
      ? {
          bps: fee.newerTransferFee.transferFeeBasisPoints,
          maximumFee: fee.newerTransferFee.maximumFee,
          authority: nonDefault(fee.transferFeeConfigAuthority),
        }
      : null,
    permanentDelegate: nonDefault(getPermanentDelegate(state)?.delegate ?? null),
    transferHookProgram: hookProgram,
    nonTransferable: types.includes(ExtensionType.NonTransferable),
    defaultFrozen: getDefaultAccountState(state)?.state === AccountState.Frozen,
    closeAuthority: nonDefault(getMintCloseAuthority(state)?.closeAuthority ?? null),
    metadata,
  };
}

function nonDefault(key: PublicKey | null): string | null {
  return key && !key.equals(PublicKey.default) ? key.toBase58() : null;
}

/** Extension types in a TLV area; a zero type is padding and ends it. */
function tlvTypes(tlv: Buffer): number[] {
  const out: number[] = [];
  for (let offset = 0; offset + 4 <= tlv.length;) {
    const type = tlv.readUInt16LE(offset);
    const length = tlv.readUInt16LE(offset + 2);
    if (type === 0) break;
    out.push(type);
    offset += 4 + length;
  }
  return out;
}

/** The update authority of the Token-2022 metadata extension: its first 32 bytes, zero for none. */
function metadataAuthority(tlv: Buffer): MintFacts['metadata'] {
  for (let offset = 0; offset + 4 <= tlv.length;) {
    const type = tlv.readUInt16LE(offset);
    const length = tlv.readUInt16LE(offset + 2);
    if (type === 0) break;
    if (type === TOKEN_METADATA_EXTENSION && length >= 32) {
      return {
        present: true,
        updateAuthority: nonDefault(new PublicKey(tlv.subarray(offset + 4, offset + 36))),
      };
    }
    offset += 4 + length;
  }
  return { present: false, updateAuthority: null };
}
