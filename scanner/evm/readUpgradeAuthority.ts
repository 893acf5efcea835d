import { type Address, parseAbi, type PublicClient, zeroAddress } from 'viem';
import type { ReadProxyReturnType } from './readProxy.ts';
import { PROXY_TIMELOCK_MIN_SECONDS } from '../core/risk/model.ts';
import { readTimelock } from './readTimelock.ts';
import { tryRead } from './tryRead.ts';

const ownableAbi = parseAbi(['function owner() view returns (address)']);
const timelockAbi = parseAbi(['function getMinDelay() view returns (uint256)']);

export interface UpgradeAuthority {
  /**
   * none: not upgradeable; renounced: upgradeable code nobody can upgrade any more; account: an
   * account can upgrade at once; timelock: upgrades wait in a timelock.
   */
  kind: 'none' | 'renounced' | 'account' | 'timelock';
  /** Who decides upgrades in the end (the timelock itself for `timelock`). */
  address?: Address;
  delaySeconds?: number;
  /** The chain of contracts followed, for the evidence. */
  path: string[];
}

/**
 * Who can replace a proxy's code: the EIP-1967 admin (following a ProxyAdmin to its owner), the
 * beacon's owner, or for UUPS/EIP-1822 the token's own owner; and whether that account is a
 * timelock (TimelockController's getMinDelay()) or renounced. A timelock of a day or more must
 * also hold its wait against `callers` (readTimelock), or it is the account that upgrades at once.
 */
export async function readUpgradeAuthority(
  client: PublicClient,
  {
    token,
    proxy,
    owner,
    callers,
    blockNumber,
  }: {
    token: Address;
    proxy: ReadProxyReturnType | undefined;
    owner: Address | undefined;
    /** The accounts the scan suspects, from which a timelock's wait is tried. */
    callers: readonly Address[];
    blockNumber: bigint;
  },
): Promise<UpgradeAuthority> {
  if (!proxy) return { kind: 'none', path: [] };
  const context = { token, callers, blockNumber };
  const start = proxy.admin ?? proxy.beacon;
  if (!start) {
    // UUPS and EIP-1822 proxies upgrade through the implementation, guarded by its owner.
    if (!owner || owner === zeroAddress) return { kind: 'renounced', path: ['owner() (UUPS)'] };
    return classify(client, owner, ['owner() (UUPS)'], context);
  }
  return classify(client, start, [proxy.admin ? 'EIP-1967 admin' : 'beacon'], context);
}

async function classify(
  client: PublicClient,
  account: Address,
  path: string[],
  context: { token: Address; callers: readonly Address[]; blockNumber: bigint },
  depth = 0,
): Promise<UpgradeAuthority> {
  const { blockNumber } = context;
  const delay = await tryRead(() =>
    client.readContract({ address: account, abi: timelockAbi, functionName: 'getMinDelay', blockNumber }),
  );
  if (delay !== undefined && delay >= BigInt(PROXY_TIMELOCK_MIN_SECONDS)) {
    const verdict = await readTimelock(client, { account, ...context, minDelay: delay });
    if (verdict.kind === 'not')
      return {
        kind: 'account',
        address: account,
        path: [...path, `${account} (no timelock: ${verdict.reason})`],
      };
  }
  if (delay !== undefined)
    return {
      kind: 'timelock',
      address: account,
      delaySeconds: Number(delay),
      path: [...path, `${account} (timelock)`],
    };
  const code = await client.getCode({ address: account, blockNumber });
  if (!code || code === '0x' || depth >= 2)
    return { kind: 'account', address: account, path: [...path, account] };
  // A contract in the way (a ProxyAdmin, a beacon): whoever owns it decides.
  const owner = await tryRead(() =>
    client.readContract({ address: account, abi: ownableAbi, functionName: 'owner', blockNumber }),
  );
  if (owner === undefined) return { kind: 'account', address: account, path: [...path, account] };
  if (owner === zeroAddress)
    return { kind: 'renounced', address: account, path: [...path, `${account} owner() = 0x0`] };
  return classify(client, owner, [...path, `${account} owner()`], context, depth + 1);
}
