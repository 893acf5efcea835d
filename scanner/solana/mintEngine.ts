import { TAX_THRESHOLDS } from '../core/risk/model.ts';
import { type CheckId, makeCheck, unknownCheck } from '../core/checks.ts';
import type { Check, Evidence } from '../core/schema.ts';
import type { EngineOutput, SolanaEngineInput } from '../engines/context.ts';
import { readMint } from './readMint.ts';

/**
 * Solana mint analysis: mint and freeze authorities, supply and decimals, and the Token-2022
 * extensions that change what holders can do (transfer fee, transfer hook, permanent delegate,
 * non-transferable, default-frozen accounts, close authority, metadata update authority).
 */
export async function solanaMint({ connection, mint, slot }: SolanaEngineInput): Promise<EngineOutput> {
  const facts = await readMint(connection, { mint, slot });
  const block = facts.slot.toString();
  const evidence = (summary: string, data: Evidence['data'] = {}): Evidence[] => [
    {
      kind: 'call',
      summary: `getAccountInfo(${mint}): ${summary}`,
      data: { program: facts.program, ...data },
      block,
    },
  ];
  const authority = (
    id: CheckId,
    value: string | null,
    failDetail: string,
    passDetail: string,
    label: string,
  ): Check =>
    value
      ? makeCheck(id, {
          status: 'fail',
          value,
          detail: failDetail.replace('{}', value),
          evidence: evidence(`${label} ${value}`, { [label]: value }),
        })
      : makeCheck(id, {
          status: 'pass',
          detail: passDetail,
          evidence: evidence(`no ${label}`, { [label]: null }),
        });

  const checks: Check[] = [
    authority(
      'is_mintable',
      facts.mintAuthority,
      'The mint authority {} can mint new supply at any time.',
      'The mint authority is revoked: supply is fixed.',
      'mint_authority',
    ),
    authority(
      'freezable',
      facts.freezeAuthority,
      "The freeze authority {} can freeze any holder's account.",
      'No freeze authority.',
      'freeze_authority',
    ),
    authority(
      'balance_mutable_authority',
      facts.permanentDelegate,
      "The permanent delegate {} can transfer or burn any holder's tokens.",
      'No permanent delegate.',
      'permanent_delegate',
    ),
    authority(
      'transfer_hook',
      facts.transferHookProgram,
      'Every transfer calls the program {}, which can block or tax it.',
      'No transfer hook.',
      'transfer_hook_program',
    ),
    authority(
      'closable',
      facts.closeAuthority,
      'The close authority {} can close the mint.',
      'No mint close authority.',
      'close_authority',
    ),
  ];
  checks.push(
    facts.nonTransferable
      ? makeCheck('none_transferable', {
          status: 'fail',
          detail: 'The NonTransferable extension is set: holders can never sell or send.',
          evidence: evidence('NonTransferable extension'),
        })
      : makeCheck('none_transferable', {
          status: 'pass',
          green: false,
          detail: 'Transferable.',
          evidence: evidence('no NonTransferable extension'),
        }),
    facts.defaultFrozen
      ? makeCheck('default_account_frozen', {
          status: 'fail',
          detail: 'New token accounts start frozen: holders depend on the freeze authority to thaw them.',
          evidence: evidence('DefaultAccountState = Frozen'),
        })
      : makeCheck('default_account_frozen', {
          status: 'pass',
          green: false,
          detail: 'New token accounts start usable.',
          evidence: evidence('default account state initialized'),
        }),
  );
  const fee = facts.transferFee;
  if (!fee) {
    checks.push(
      makeCheck('transfer_tax', {
        status: 'pass',
        value: 0,
        detail: 'No TransferFeeConfig extension.',
        evidence: evidence('no transfer fee'),
      }),
      makeCheck('slippage_modifiable', {
        status: 'pass',
        detail: 'No transfer fee to change.',
        evidence: evidence('no transfer fee'),
      }),
    );
  } else {
    const pct = fee.bps / 100;
    const band = TAX_THRESHOLDS.bands.find((candidate) => pct > candidate.above);
    const feeEvidence = evidence(`transfer fee ${fee.bps} bps, maximum ${fee.maximumFee}`, {
      fee_bps: fee.bps,
      maximum_fee: fee.maximumFee.toString(),
      fee_authority: fee.authority,
    });
    checks.push(
      band && pct > TAX_THRESHOLDS.tolerated
        ? makeCheck('transfer_tax', {
            status: 'fail',
            value: pct,
            severity: band.severity,
            detail: `Every transfer pays a ${pct}% fee.`,
            evidence: feeEvidence,
          })
        : makeCheck('transfer_tax', {
            status: 'pass',
            value: pct,
            green: pct <= TAX_THRESHOLDS.greenAtMost,
            detail: `A ${pct}% transfer fee, within the tolerated ${TAX_THRESHOLDS.tolerated}%.`,
            evidence: feeEvidence,
          }),
      fee.authority
        ? makeCheck('slippage_modifiable', {
            status: 'fail',
            value: fee.authority,
            detail: `The fee authority ${fee.authority} can raise the transfer fee.`,
            evidence: feeEvidence,
          })
        : makeCheck('slippage_modifiable', {
            status: 'pass',
            detail: 'The transfer fee has no authority: it is fixed.',
            evidence: feeEvidence,
          }),
    );
  }
  checks.push(
    !facts.metadata.present
      ? unknownCheck(
          'metadata_mutable',
          'No Token-2022 metadata extension; Metaplex metadata accounts are not read.',
        )
      : facts.metadata.updateAuthority
        ? makeCheck('metadata_mutable', {
            status: 'fail',
            value: facts.metadata.updateAuthority,
            detail: `The update authority ${facts.metadata.updateAuthority} can change the name, symbol and URI.`,
            evidence: evidence('TokenMetadata update authority set'),
          })
        : makeCheck('metadata_mutable', {
            status: 'pass',
            detail: 'The metadata has no update authority.',
            evidence: evidence('TokenMetadata update authority none'),
          }),
  );
  return {
    checks,
    facts: {
      token: { name: null, symbol: null, decimals: facts.decimals, total_supply: facts.supply.toString() },
      program: facts.program,
      extensions: facts.extensions,
      mint_authority: facts.mintAuthority,
      freeze_authority: facts.freezeAuthority,
    },
  };
}
