import { type Address, getAddress, type Hex, type PublicClient } from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { analyzeBytecode } from './analyzeBytecode.ts';

/**
 * Whether the fixed addresses a contract delegates to (a module or an external library whose
 * address is a constant in the code: an immutable, a linked library) hold pure computation: code
 * that writes no storage (in the contract's context, its balances), calls and creates nothing, and
 * cannot destroy itself. Such code can only compute what the contract's own functions ask of it,
 * from what those functions wrote: it adds no power the probes of the contract's functions miss.
 * Anything more is refused, because fixed code is not enough (adversarial review of vigil-risk/51,
 * `fixedModules.attacks.test.ts`): a module whose functions a fallback or a pass-through entry point
 * reaches with any selector can write balances the probes never called it to write, and one that
 * calls another contract (itself, at its own address) reads settings an operator changes there. An
 * address without code (whoever deploys there decides what runs) and an EIP-7702 delegated wallet
 * (its key changes the code it runs) are refused too. The code is read as analyzeBytecode reads
 * it: the metadata tail counts where it could run. Hand-written for the same reason as
 * delegateTargets.
 */

/** EIP-7702's delegation designator: an account whose key picks, and changes, the code it runs. */
const DELEGATION_PREFIX = '0xef0100';
/** Modules read per contract at most. */
const MAX_MODULES = 8;

export type FixedModulesVerdict =
  { closed: true; modules: Address[] } | { closed: false; modules: Address[]; reason: string };

export async function readFixedModules(
  client: Pick<PublicClient, 'getCode'>,
  { targets, blockNumber }: { targets: readonly Hex[]; blockNumber: bigint },
): Promise<FixedModulesVerdict> {
  const modules = [...new Set(targets.map((target) => getAddress(target)))];
  const open = (reason: string): FixedModulesVerdict => ({ closed: false, modules, reason });
  if (modules.length > MAX_MODULES) return open(`more than ${MAX_MODULES} modules`);
  for (const module of modules) {
    let code: Hex | undefined;
    try {
      code = await client.getCode({ address: module, blockNumber });
    } catch (error) {
      if (isRpcUnreachable(error)) throw error;
      return open(`the code at ${module} could not be read`);
    }
    if (!code || code === '0x') return open(`no code at ${module}: whoever deploys there decides what runs`);
    if (code.toLowerCase().startsWith(DELEGATION_PREFIX))
      return open(
        `${module} is a wallet delegated to code (EIP-7702): its key delegates it elsewhere at will`,
      );
    const { writes, callsOut } = analyzeBytecode(code);
    if (writes || callsOut)
      return open(
        `${module} is no pure computation: it ${writes ? 'writes storage or can destroy itself' : 'calls or creates other contracts'}`,
      );
  }
  return { closed: true, modules };
}
