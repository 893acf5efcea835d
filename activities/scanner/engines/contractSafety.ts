import { type Address, type Hex, parseAbi, type PublicClient, zeroAddress } from 'viem';
import { type CheckId, makeCheck } from '../../../core/scan/checks.ts';
import type { Check, Evidence } from '../../../core/scan/schema.ts';
import { Severity } from '../../../core/scan/schema.ts';
import type { TokenFacts } from '../../../core/scan/result.ts';
import { analyzeBytecode } from '../evm/analyzeBytecode.ts';
import { findPrivileged, type PrivilegeGroup } from '../evm/knownSelectors.ts';
import { readOwner } from '../evm/readOwner.ts';
import { readProxy, type ReadProxyReturnType } from '../evm/readProxy.ts';
import { readTokenMetadata } from '../evm/readTokenMetadata.ts';
import { tryRead } from '../evm/tryRead.ts';

export interface EngineOutput {
  checks: Check[];
  facts: Record<string, unknown>;
}

const beaconAbi = parseAbi(['function implementation() view returns (address)']);

/** Flags raised by privileged functions found in the code, and what each one lets the owner do. */
const PRIVILEGE_CHECKS: { id: CheckId; group: PrivilegeGroup; power: string }[] = [
  { id: 'is_mintable', group: 'mint', power: 'mint new supply' },
  { id: 'is_blacklisted', group: 'blacklist', power: 'block addresses from trading' },
  { id: 'transfer_pausable', group: 'pause', power: 'pause transfers or trading' },
  { id: 'slippage_modifiable', group: 'fees', power: 'change buy/sell taxes' },
  { id: 'is_anti_whale', group: 'limits', power: 'cap transaction or wallet sizes' },
];

/**
 * Contract safety from code and state at one block: ownership, privileged functions (from the
 * dispatcher's selectors, through a proxy to its implementation), proxy slots, selfdestruct and
 * delegatecall.
 */
export async function contractSafety(
  client: PublicClient,
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<EngineOutput> {
  const block = blockNumber.toString();
  const [code, proxy, ownerInfo, token] = await Promise.all([
    client.getCode({ address, blockNumber }),
    readProxy(client, { address, blockNumber }),
    readOwner(client, { address, blockNumber }),
    readTokenMetadata(client, { address, blockNumber }),
  ]);
  const own = analyzeBytecode(code ?? '0x');
  const implementation = await resolveImplementation(client, proxy, own.minimalProxyTarget, blockNumber);
  const implCode = implementation
    ? await client.getCode({ address: implementation, blockNumber })
    : undefined;
  const impl = implCode ? analyzeBytecode(implCode) : undefined;
  const selectors = new Set<Hex>([...own.selectors, ...(impl?.selectors ?? [])]);

  const owner = ownerInfo.owner;
  const renounced = owner === zeroAddress;
  const checks: Check[] = [];
  const ownerEvidence: Evidence[] = ownerInfo.getter
    ? [
        {
          kind: 'call',
          summary: `${ownerInfo.getter} returned ${owner}`,
          data: { function: ownerInfo.getter, result: owner ?? null },
          block,
        },
      ]
    : [{ kind: 'call', summary: 'neither owner() nor getOwner() answered', block }];

  if (owner === undefined) {
    checks.push(
      makeCheck('owner_not_renounced', {
        status: 'pass',
        green: false,
        detail: 'The contract exposes no owner getter.',
        evidence: ownerEvidence,
      }),
    );
  } else if (renounced) {
    checks.push(
      makeCheck('owner_not_renounced', {
        status: 'pass',
        detail: 'The owner is the zero address.',
        evidence: ownerEvidence,
      }),
    );
  } else {
    checks.push(
      makeCheck('owner_not_renounced', {
        status: 'fail',
        value: owner,
        detail: `The owner ${owner} holds the contract's privileges.`,
        evidence: ownerEvidence,
      }),
    );
  }

  for (const { id, group, power } of PRIVILEGE_CHECKS) {
    const found = findPrivileged(group, selectors);
    if (found.length === 0) {
      checks.push(
        makeCheck(id, {
          status: 'pass',
          detail: `No known function to ${power}.`,
          evidence: [bytecodeEvidence(selectors.size, block)],
        }),
      );
      continue;
    }
    const names = found.map((entry) => entry.signature).join(', ');
    checks.push(
      makeCheck(id, {
        status: 'fail',
        // A renounced owner can no longer call owner-only functions; the finding stays, its weight drops.
        ...(renounced ? { severity: Severity.low } : {}),
        value: names,
        detail: renounced
          ? `The code has ${names}, but the owner is renounced.`
          : `The code has ${names}: the privileged account can ${power}.`,
        evidence: found.map(({ signature, selector }) => ({
          kind: 'selector' as const,
          summary: `${signature} (${selector}) is in the dispatcher`,
          data: { signature, selector, in: impl?.selectors.has(selector) ? 'implementation' : 'contract' },
          block,
        })),
      }),
    );
  }

  checks.push(proxyCheck(proxy, own.minimalProxyTarget, block));
  const selfdestruct = own.hasSelfdestruct || Boolean(impl?.hasSelfdestruct);
  checks.push(
    makeCheck('selfdestruct', {
      status: selfdestruct ? 'fail' : 'pass',
      detail: selfdestruct
        ? 'The code contains the SELFDESTRUCT opcode.'
        : 'No SELFDESTRUCT opcode in the code.',
      evidence: [
        {
          kind: 'bytecode',
          summary: `opcode walk of ${own.codeSize} bytes`,
          data: { opcode: '0xff', found: selfdestruct },
          block,
        },
      ],
    }),
  );
  const isProxy = Boolean(proxy || own.minimalProxyTarget);
  const delegates = (own.hasDelegatecall && !isProxy) || Boolean(impl?.hasDelegatecall);
  checks.push(
    makeCheck('external_call', {
      status: delegates ? 'fail' : 'pass',
      detail: delegates
        ? "The code runs other contracts' code in its own context (DELEGATECALL)."
        : isProxy
          ? 'Only the proxy itself delegates, to its implementation.'
          : 'No DELEGATECALL in the code.',
      evidence: [
        {
          kind: 'bytecode',
          summary: 'opcode walk',
          data: { opcode: '0xf4', found: own.hasDelegatecall || Boolean(impl?.hasDelegatecall) },
          block,
        },
      ],
    }),
  );

  const facts: Record<string, unknown> = {
    token: token satisfies TokenFacts,
    owner: owner ?? null,
    code_size: own.codeSize,
    selectors: selectors.size,
  };
  if (implementation) facts.implementation = implementation;
  return { checks, facts };
}

async function resolveImplementation(
  client: PublicClient,
  proxy: ReadProxyReturnType | undefined,
  minimalProxyTarget: Address | undefined,
  blockNumber: bigint,
): Promise<Address | undefined> {
  if (minimalProxyTarget) return minimalProxyTarget;
  if (!proxy) return undefined;
  if (proxy.implementation) return proxy.implementation;
  if (proxy.beacon) {
    const beacon = proxy.beacon;
    return tryRead(() =>
      client.readContract({ address: beacon, abi: beaconAbi, functionName: 'implementation', blockNumber }),
    );
  }
  return undefined;
}

function proxyCheck(
  proxy: ReadProxyReturnType | undefined,
  minimalProxyTarget: Address | undefined,
  block: string,
): Check {
  if (proxy) {
    const data: Record<string, string> = { kind: proxy.kind, slot: proxy.slot };
    if (proxy.implementation) data.implementation = proxy.implementation;
    if (proxy.admin) data.admin = proxy.admin;
    if (proxy.beacon) data.beacon = proxy.beacon;
    return makeCheck('is_proxy', {
      status: 'fail',
      value: proxy.kind,
      detail: `An ${proxy.kind} proxy: its logic can be replaced${proxy.admin ? ` by ${proxy.admin}` : ''}.`,
      evidence: [{ kind: 'storage_slot', summary: `proxy slot ${proxy.slot} is set`, data, block }],
    });
  }
  if (minimalProxyTarget) {
    return makeCheck('is_proxy', {
      status: 'pass',
      green: false,
      detail: `An EIP-1167 clone of ${minimalProxyTarget}; clones cannot be upgraded.`,
      evidence: [
        {
          kind: 'bytecode',
          summary: 'EIP-1167 minimal proxy code',
          data: { target: minimalProxyTarget },
          block,
        },
      ],
    });
  }
  return makeCheck('is_proxy', {
    status: 'pass',
    detail: 'No proxy slot is set and the code is not a clone.',
    evidence: [{ kind: 'storage_slot', summary: 'EIP-1967 and EIP-1822 slots are empty', block }],
  });
}

function bytecodeEvidence(selectorCount: number, block: string): Evidence {
  return {
    kind: 'bytecode',
    summary: `${selectorCount} selectors in the dispatcher`,
    data: { selectors: selectorCount },
    block,
  };
}
