import {
  type Address,
  getAddress,
  type Hex,
  numberToHex,
  parseAbi,
  type PublicClient,
  zeroAddress,
} from 'viem';
import { isRpcUnreachable } from '../../clients/chains/rpcErrors.ts';
import { PUBLIC_CONTRACTS } from '../../core/chains/registry.ts';
import { makeCheck, unknownCheck } from '../core/checks.ts';
import type { TokenFacts } from '../core/result.ts';
import { type Check, Severity } from '../core/schema.ts';
import { analyzeBytecode } from '../evm/analyzeBytecode.ts';
import { balanceKey, findBalanceSlot } from '../evm/balanceSlot.ts';
import { pinnedBlock } from '../evm/perBlock.ts';
import { type DelegateTargetsReturnType, delegateTargets } from '../evm/delegateTargets.ts';
import { readFixedModules } from '../evm/fixedModules.ts';
import { discoverPowers } from '../evm/discoverPowers.ts';
import { bytecodeFingerprint } from '../fingerprint/bytecodeFingerprint.ts';
import { findPool } from '../evm/findPool.ts';
import { findPrivileged, type PrivilegeGroup, probeCalldata } from '../evm/knownSelectors.ts';
import {
  distinctCandidates,
  type PrivilegeCandidate,
  readRoleAccounts,
  creationCodeAccounts,
  readCallerAccounts,
  readStorageWords,
  storageAccounts,
  writtenAddress,
} from '../evm/privilegeCandidates.ts';
import { holderBuySizes, PROBE_VICTIM, type ProbeCall, probePrivileges } from '../evm/probePrivileges.ts';
import { readOwner } from '../evm/readOwner.ts';
import { readProxy, type ReadProxyReturnType } from '../evm/readProxy.ts';
import { readTokenMetadata } from '../evm/readTokenMetadata.ts';
import { readUpgradeAuthority } from '../evm/readUpgradeAuthority.ts';
import { tryRead } from '../evm/tryRead.ts';
import type { EngineOutput, EvmEngineInput } from './context.ts';
import { applyDiscovery } from './discoveredPowers.ts';
import { type OwnerState, privilegeChecks, type ProbeRun } from './privileges.ts';
import { simulationGasPrice } from '../evm/simulationGasPrice.ts';
import { traceHolderTransfer } from '../evm/traceComparisons.ts';
import { lapTimer } from '../evm/laps.ts';
import { readReliedOn } from './reliedOn.ts';

export type { EngineOutput } from './context.ts';

const beaconAbi = parseAbi(['function implementation() view returns (address)']);
/** Accounts the power discovery calls from, at most: each costs a few eth_calls. */
const MAX_DISCOVERY_CANDIDATES = 12;
const PROBED_GROUPS: PrivilegeGroup[] = [
  'mint',
  'balance',
  'blacklist',
  'whitelist',
  'pause',
  'fees',
  'limits',
];

/**
 * Contract safety from code and state at one block: ownership (fake renounces included),
 * privileged functions found in the dispatcher (through a proxy to its implementation) and then
 * called as their holders would call them in a simulation, to see what they really do; who can
 * upgrade a proxy; selfdestruct and delegatecall.
 */
export async function contractSafety(input: EvmEngineInput): Promise<EngineOutput> {
  const { client, address, blockNumber, chain } = input;
  const block = blockNumber.toString();
  // Each step's wall time, one after the other (facts.timings_ms): where a scan's time goes.
  const timings: Record<string, number> = {};
  const mark = lapTimer(timings);
  const [code, proxy, ownerInfo, token, roles, storageWords, pool, told, gasPrice] = await Promise.all([
    client.getCode({ address, blockNumber }),
    readProxy(client, { address, blockNumber }),
    readOwner(client, { address, blockNumber }),
    readTokenMetadata(client, { address, blockNumber }),
    readRoleAccounts(client, { token: address, blockNumber }),
    readStorageWords(client, { token: address, blockNumber }),
    findPool(client, { token: address, dexes: chain.dexes, blockNumber }),
    readCallerAccounts(client, { token: address, creation: input.creation, blockNumber }),
    simulationGasPrice(client, blockNumber),
  ]);
  mark('reads');
  const own = analyzeBytecode(code ?? '0x');
  const implementation = await resolveImplementation(client, proxy, own.minimalProxyTarget, blockNumber);
  const implCode = implementation
    ? await client.getCode({ address: implementation, blockNumber })
    : undefined;
  const impl = implCode ? analyzeBytecode(implCode) : undefined;
  const selectors = new Set<Hex>([...own.selectors, ...(impl?.selectors ?? [])]);

  const owner: OwnerState =
    ownerInfo.owner === undefined
      ? { kind: 'none' }
      : ownerInfo.owner === zeroAddress
        ? { kind: 'renounced' }
        : { kind: 'live', owner: ownerInfo.owner };
  mark('implementation');
  const deployer = input.creation?.deployer as Address | undefined;
  // Every account that might hold a power, whatever the owner getter says.
  const codeAddresses = [
    ...[...own.addresses, ...(impl?.addresses ?? [])].flatMap((value) =>
      writtenAddress(value) ? [{ address: getAddress(value), source: 'address in the code' }] : [],
    ),
    ...creationCodeAccounts(told.creationCode, code),
  ];
  const exclude = [
    address,
    pool?.pair,
    pool?.dex.router,
    pool?.dex.wrappedNative,
    implementation,
    proxy?.admin,
    PROBE_VICTIM,
    zeroAddress,
    ...PUBLIC_CONTRACTS,
  ];
  // A word holding an account read elsewhere holds that one, not a slice of it beside a flag.
  const stored = storageAccounts(storageWords, [
    ...exclude,
    ownerInfo.owner,
    deployer,
    ...roles.map((role) => role.address),
    ...told.candidates.map((candidate) => candidate.address),
    ...codeAddresses.map((candidate) => candidate.address),
  ]);
  const actors: PrivilegeCandidate[] =
    owner.kind === 'live'
      ? distinctCandidates(
          [{ address: owner.owner, source: `${ownerInfo.getter ?? 'owner()'}` }, ...roles],
          exclude,
        )
      : distinctCandidates(
          [...(deployer ? [{ address: deployer, source: 'deployer' }] : []), ...roles, ...stored],
          exclude,
        );
  const supply = token.total_supply === null ? 0n : BigInt(token.total_supply);
  const runs = await runProbes(client, {
    token: address,
    actors,
    selectors,
    reclaim: owner.kind === 'renounced',
    amount: supply / 100n + 1n,
    router: pool?.dex.router,
    gasPrice,
    blockNumber,
  });
  mark('known_selector_probes');

  const [pinned, balanceSlot] = await Promise.all([
    pinnedBlock(client, blockNumber),
    pool?.pair ? findBalanceSlot(client, { token: address, holder: pool.pair, blockNumber }) : undefined,
  ]);
  // An ordinary holder's send, traced: the keys it hashes, the contracts it calls, the stored
  // fields it compares. Where the balances mapping is found the holder holds a token's worth: one
  // with nothing is refused before whatever a transfer checks after the balances move.
  const holderTrace = await traceHolderTransfer(client, {
    token: address,
    holder: PROBE_VICTIM,
    to: pool?.pair ?? address,
    blockNumber,
    ...(balanceSlot
      ? {
          storage: {
            [address]: { [balanceKey(balanceSlot, PROBE_VICTIM)]: numberToHex(10n ** 18n, { size: 32 }) },
          },
        }
      : {}),
  });
  mark('holder_trace');
  // Best effort: a contract that cannot be read is one fewer to follow, not a failed engine.
  const reliedOn = await readReliedOn(client, {
    callees: holderTrace.callees,
    stored: [...stored, ...codeAddresses, ...told.candidates],
    exclude,
    blockNumber,
  }).catch((error: unknown) => {
    if (isRpcUnreachable(error)) throw error;
    return { contracts: [], accounts: [] };
  });
  mark('relied_on');
  const suspects = distinctCandidates(
    [
      ...(owner.kind === 'live' ? [{ address: owner.owner, source: ownerInfo.getter ?? 'owner()' }] : []),
      ...roles,
      ...(deployer ? [{ address: deployer, source: 'deployer' }] : []),
      ...told.candidates,
      ...stored,
      ...reliedOn.accounts,
      ...codeAddresses,
      ...(pool?.pair ? [{ address: pool.pair, source: 'the pair' }] : []),
      // Last: a launch that funds many wallets must not push the kept ones, or the pair, out.
      ...told.minted,
    ],
    exclude.filter((value) => value !== pool?.pair),
  ).slice(0, MAX_DISCOVERY_CANDIDATES);
  // Who can replace a proxy's code; a timelock in the way is tried from every suspect.
  const upgrade = await readUpgradeAuthority(client, {
    token: address,
    proxy,
    owner: ownerInfo.owner,
    callers: suspects.map((candidate) => candidate.address),
    blockNumber,
  });
  mark('upgrade');
  // Nothing the token does reads the block or reaches another contract, and no contract it keeps
  // is called in its place: a day or a year on, every call does what it does now.
  const clockBlind = !implementation && !own.readsBlock && !own.callsOut && reliedOn.contracts.length === 0;
  const discovery = await discoverPowers(client, {
    token: address,
    // Dispatcher comparisons only (PUSH4 … EQ): error selectors and other 4-byte constants are
    // no functions, and each would cost a call at every time offset.
    selectors: new Set<Hex>(
      [code, implCode].flatMap((each) => (each ? (bytecodeFingerprint(each)?.selectors ?? []) : [])) as Hex[],
    ),
    candidates: suspects,
    victim: PROBE_VICTIM,
    router: pool?.dex.router,
    pair: pool?.pair,
    supply,
    blockNumber,
    blockTimestamp: pinned.timestamp,
    ...(gasPrice === undefined ? {} : { gasPrice }),
    timeBudgetMs: input.config.limits.SCAN_DISCOVERY_BUDGET_MS,
    readsOrigin: own.hasOrigin || Boolean(impl?.hasOrigin),
    clockBlind,
    ...(balanceSlot ? { balanceSlot } : {}),
    holderHashes: holderTrace.hashes,
    holderCompared: holderTrace.compared,
    // Its code or its holder's traced transfer (which may stop before the check a list of code
    // hashes makes) reads a code hash.
    holderReadsCodeHash: holderTrace.readsCodeHash || own.hasCodeHash || Boolean(impl?.hasCodeHash),
    elsewhere: reliedOn.contracts,
    excluded: exclude,
    ...(pool ? { holderBuySizes: holderBuySizes(pool.reserveNative) } : {}),
  });
  mark('discovery');
  const checks: Check[] = applyDiscovery(
    privilegeChecks({
      selectors,
      implementationSelectors: impl?.selectors ?? new Set(),
      owner,
      runs,
      candidates: owner.kind === 'live' ? 0 : actors.length,
      upgrade,
      block,
    }),
    { result: discovery, holderFunded: pool !== undefined && pool !== null, block },
  );
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
  // The fingerprint of the token's own code, as every scan stores it.
  const fingerprint = bytecodeFingerprint(code ?? '0x');
  const isProxy = Boolean(proxy || own.minimalProxyTarget);
  checks.push(
    isProxy
      ? unknownCheck(
          'clone_of_harmful',
          "A proxy: its code is the proxy's, shared with every token behind the same kind of proxy.",
        )
      : cloneAgainstOwnProbes(
          await cloneCheck(input, fingerprint?.code_hash, block),
          discovery.failures.length === 0 && discovery.findings.length === 0 && Boolean(pool),
        ),
  );
  mark('clone');
  // Which code's DELEGATECALLs (and CALLCODEs) count: the token's (unless it is the proxy, whose
  // one delegate is its implementation, judged apart) and its implementation's. Walked whatever
  // the opcode scan said: a site can hide past where the metadata is said to begin.
  const delegating = [
    ...(isProxy ? [] : [{ code: code ?? '0x', of: 'token' }]),
    ...(implCode ? [{ code: implCode, of: 'implementation' }] : []),
  ]
    .map(({ code: delegatingCode, of }) => ({ of, ...delegateTargets(delegatingCode) }))
    .filter(
      (sites) => !sites.complete || sites.self.length + sites.elsewhere.length + sites.unreached.length > 0,
    );
  // A site proved to call the contract itself passes (a batch of its own calls, OpenZeppelin's
  // Multicall), and so does one that calls pure computation at a fixed address (a module or a
  // linked library at a constant address that writes, calls and creates nothing: readFixedModules),
  // which computes only what the contract's own functions ask. A target read from storage or
  // calldata, one the walk could not follow, or fixed code that writes or calls, runs code the
  // probes never called.
  const loose = delegating.some(
    (sites) => !sites.complete || sites.anywhere.length > 0 || sites.unreached.length > 0,
  );
  const fixedTargets = [...new Set(delegating.flatMap((sites) => sites.fixed))];
  const modules =
    !loose && fixedTargets.length > 0
      ? await readFixedModules(client, { targets: fixedTargets, blockNumber })
      : undefined;
  const delegates = loose || (modules !== undefined && !modules.closed);
  const selfOnly = delegating.length > 0 && !delegates && modules === undefined;
  checks.push(
    makeCheck('external_call', {
      status: delegates ? 'fail' : 'pass',
      detail: delegates
        ? `The code runs other contracts' code in its own context (DELEGATECALL or CALLCODE)${modules && !modules.closed ? `: ${modules.reason}` : ''}.`
        : modules?.closed
          ? `Every DELEGATECALL in the code runs its own code or pure computation at a fixed address (${modules.modules.join(', ')}): code that writes, calls and creates nothing.`
          : selfOnly
            ? 'Every DELEGATECALL in the code runs its own code (a batch of its own calls), no other.'
            : isProxy
              ? 'Only the proxy itself delegates, to its implementation.'
              : 'No DELEGATECALL in the code.',
      evidence: [
        {
          kind: 'bytecode',
          summary: 'opcode walk, and every path to a DELEGATECALL or CALLCODE followed for its target',
          data: {
            opcode: '0xf4 (DELEGATECALL), 0xf2 (CALLCODE)',
            found: delegating.length > 0,
            all_paths_followed: delegating.every((sites) => sites.complete),
            stopped_by: delegating
              .flatMap((sites) => (sites.stoppedBy ? [`${sites.of}: ${sites.stoppedBy}`] : []))
              .join('; '),
            // Offsets in the code, as `code:offset` (the token's, or its implementation's).
            to_itself: offsets(delegating, 'self'),
            elsewhere: offsets(delegating, 'elsewhere'),
            unreached: offsets(delegating, 'unreached'),
            fixed_targets: fixedTargets.join(' '),
            fixed_code: modules ? (modules.closed ? 'pure' : modules.reason) : '',
          },
          block,
        },
      ],
    }),
  );

  mark('delegate_walk');
  const facts: Record<string, unknown> = {
    token: token satisfies TokenFacts,
    owner: ownerInfo.owner ?? null,
    code_size: own.codeSize,
    selectors: selectors.size,
    upgrade: {
      kind: upgrade.kind,
      authority: upgrade.address ?? null,
      delay_seconds: upgrade.delaySeconds ?? null,
    },
    code_hash: fingerprint?.code_hash ?? null,
    probed_accounts: runs.map((run) => ({ address: run.actor.address, source: run.actor.source })),
    discovery: {
      candidates: suspects.map((candidate) => ({ address: candidate.address, source: candidate.source })),
      selectors: discovery.selectorsTried,
      calls: discovery.calls,
      round_trips: discovery.roundTrips,
      clock_blind: clockBlind,
      retried_round_trips: discovery.retried,
      same_calls: discovery.sameCalls,
      rescaled_calls: discovery.rescaled,
      repeated_calls: discovery.repeated,
      toggles: discovery.toggled,
      findings: discovery.findings.length,
      failures: discovery.failures.slice(0, 3),
      holder_buy: {
        wei: discovery.holderBuy.wei?.toString() ?? null,
        share: discovery.holderBuy.share,
        sizes_tried: discovery.holderBuy.tried,
        refused_later: discovery.holderBuy.refused,
      },
      heavy_probes: discovery.heavyProbes,
      out_of_time: discovery.outOfTime
        ? {
            after_ms: discovery.outOfTime.afterMs,
            calls_not_made: discovery.outOfTime.callsNotMade,
            rounds_left_out: discovery.outOfTime.roundsLeftOut,
          }
        : null,
      comparisons: discovery.comparisons,
      later_block: discovery.laterBlock,
      timings_ms: discovery.timingsMs,
      holder_trace: {
        hashes: holderTrace.hashes.length,
        compared: holderTrace.compared.map(String),
        funded: holderTrace.funded,
        reads_code_hash: holderTrace.readsCodeHash,
        callees: holderTrace.callees,
        error: holderTrace.error,
      },
      relied_on: reliedOn.contracts.map((entry) => ({
        address: entry.target,
        functions: entry.selectors.length,
      })),
      callers_from_traces: told.traces,
    },
    timings_ms: timings,
  };
  if (implementation) facts.implementation = implementation;
  return { checks, facts };
}

interface RunProbesParameters {
  token: Address;
  actors: PrivilegeCandidate[];
  selectors: ReadonlySet<Hex>;
  reclaim: boolean;
  amount: bigint;
  router: Address | undefined;
  blockNumber: bigint;
  gasPrice: bigint | undefined;
}

/** One probe per account, in parallel; an account whose probe cannot run is left out. */
async function runProbes(client: PublicClient, parameters: RunProbesParameters): Promise<ProbeRun[]> {
  const groups: PrivilegeGroup[] = parameters.reclaim ? [...PROBED_GROUPS, 'reclaim'] : PROBED_GROUPS;
  const entries = groups.flatMap((group) =>
    group === 'reclaim'
      ? // transferOwnership is in every Ownable: only a working one from a non-owner says anything.
        findPrivileged(group, new Set([...parameters.selectors]))
      : findPrivileged(group, parameters.selectors),
  );
  if (entries.length === 0) return [];
  const runs = await Promise.all(
    parameters.actors.map(async (actor): Promise<ProbeRun | undefined> => {
      const calls: ProbeCall[] = entries.flatMap((entry) => {
        const data = probeCalldata(entry, {
          victim: PROBE_VICTIM,
          actor: actor.address,
          amount: parameters.amount,
        });
        return data ? [{ label: entry.signature, data }] : [];
      });
      if (calls.length === 0) return undefined;
      try {
        const result = await probePrivileges(client, {
          token: parameters.token,
          actor: actor.address,
          calls,
          router: parameters.router,
          blockNumber: parameters.blockNumber,
          ...(parameters.gasPrice === undefined ? {} : { gasPrice: parameters.gasPrice }),
        });
        return { actor, result };
      } catch (error) {
        if (isRpcUnreachable(error)) throw error;
        return undefined;
      }
    }),
  );
  return runs.filter((run): run is ProbeRun => run !== undefined);
}

/**
 * Clone evidence: another token with the same normalised code (constants, names and selectors
 * aside: a redeployed scam) was found harmful by an earlier scan. Only identical code counts:
 * measured on the devnet's 95 contracts, MinHash similarity put a plain ERC-20 within 0.99 of a
 * token whose one extra function burns holders' balances (the shared library code dominates the
 * shingles), so similarity alone cannot tell a clone from a cousin.
 */
async function cloneCheck(
  input: EvmEngineInput,
  codeHash: string | undefined,
  block: string,
): Promise<Check> {
  if (!codeHash) return unknownCheck('clone_of_harmful', 'No code to fingerprint.');
  if (!input.harmfulTwins)
    return unknownCheck('clone_of_harmful', 'This deployment keeps no code fingerprints of earlier scans.');
  const twins = await input.harmfulTwins(codeHash).catch((error: unknown) => {
    if (isRpcUnreachable(error)) throw error;
    return undefined;
  });
  if (!twins) return unknownCheck('clone_of_harmful', 'The fingerprint index could not be read.');
  const first = twins[0];
  const evidence = [
    {
      kind: 'bytecode' as const,
      summary: `normalised code ${codeHash.slice(0, 16)}… (opcodes without immediates or metadata)`,
      data: { code_hash: codeHash },
      block,
    },
  ];
  if (!first)
    return makeCheck('clone_of_harmful', {
      status: 'pass',
      detail: 'No token found harmful by an earlier scan has this code.',
      evidence,
    });
  return makeCheck('clone_of_harmful', {
    status: 'fail',
    value: `${first.chain}:${first.address}`,
    detail: `The same code as ${first.address} on ${first.chain}, which a scan of ${first.scanned_at} found harmful (${first.gates.join(', ')}).`,
    evidence: [
      ...evidence,
      ...twins.map((twin) => ({
        kind: 'note' as const,
        summary: `${twin.chain}:${twin.address} has the same code; its scan ${twin.job_id} failed ${twin.gates.join(', ')}`,
        data: {
          chain: twin.chain,
          address: twin.address,
          similarity: 1,
          gates: twin.gates.join(', '),
          flags: twin.flags.join(', '),
          job_id: twin.job_id,
          scanned_at: twin.scanned_at,
        },
      })),
    ],
  });
}

/**
 * The same code is no power where this token's own probes show none usable: a twin found harmful
 * because its owner kept a mint says little about a copy whose owner renounced it. The finding
 * stays, weighing nothing, with the reason; where the probes could not measure (no pool, a probe
 * that failed) it keeps its weight.
 */
function cloneAgainstOwnProbes(check: Check, probesCleared: boolean): Check {
  if (check.status !== 'fail' || !probesCleared) return check;
  return {
    ...check,
    severity: Severity.info,
    downgraded: {
      from: check.severity,
      reason: "this token's own simulated calls found none of the twin's powers usable here",
    },
  };
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

/** DELEGATECALL sites of one kind, as `token:0x1f4 implementation:0x20` (empty when none). */
function offsets(
  delegating: readonly ({ of: string } & DelegateTargetsReturnType)[],
  kind: 'self' | 'elsewhere' | 'unreached',
): string {
  return delegating.flatMap((sites) => sites[kind].map((at) => `${sites.of}:0x${at.toString(16)}`)).join(' ');
}
