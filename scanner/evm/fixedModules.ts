import { type Address, getAddress, type Hex, type PublicClient } from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { analyzeBytecode } from './analyzeBytecode.ts';
import { delegateTargets } from './delegateTargets.ts';

/**
 * Whether the fixed addresses a contract delegates to (a module or an external library whose
 * address is a constant in the code: an immutable, a linked library) run code that cannot change.
 * Such code runs only inside the contract's own functions, which the probes call: what it lets an
 * insider do shows there as the contract's own code would. It can change only if the address has
 * no code yet (whoever deploys there later decides what runs), if it is a wallet delegated to code
 * (EIP-7702: its key changes the delegation), if it can destroy itself (a
 * metamorphic contract, redeployed with other code where SELFDESTRUCT still removes code), or if
 * it delegates in its turn to a target that is not fixed, or to one that is not closed so. Each
 * module's code is read at the block and walked like the contract's (`delegateTargets`), modules
 * of modules too, up to MAX_MODULES in all. Hand-written for the same reason as delegateTargets.
 */

/** EIP-7702's delegation designator: an account whose key picks, and changes, the code it runs. */
const DELEGATION_PREFIX = '0xef0100';
/** Modules read per contract at most (its own, and theirs). */
const MAX_MODULES = 4;

export type FixedModulesVerdict =
  { closed: true; modules: Address[] } | { closed: false; modules: Address[]; reason: string };

export async function readFixedModules(
  client: Pick<PublicClient, 'getCode'>,
  { targets, blockNumber }: { targets: readonly Hex[]; blockNumber: bigint },
): Promise<FixedModulesVerdict> {
  const seen = new Set<string>();
  const queue = [...targets];
  const modules: Address[] = [];
  const open = (reason: string): FixedModulesVerdict => ({ closed: false, modules, reason });
  for (let target = queue.shift(); target; target = queue.shift()) {
    const key = target.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (modules.length >= MAX_MODULES) return open(`more than ${MAX_MODULES} modules`);
    const module = getAddress(target);
    modules.push(module);
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
    if (analyzeBytecode(code).hasSelfdestruct) return open(`${module} can destroy itself (SELFDESTRUCT)`);
    const sites = delegateTargets(code);
    if (!sites.complete)
      return open(`${module}'s code could not be walked (${sites.stoppedBy ?? 'stopped'})`);
    if (sites.anywhere.length > 0 || sites.unreached.length > 0)
      return open(`${module} delegates to a target that is not fixed`);
    queue.push(...sites.fixed);
  }
  return { closed: true, modules };
}
