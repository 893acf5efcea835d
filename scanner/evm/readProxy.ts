import { type Address, getAddress, type Hex, type PublicClient, zeroAddress } from 'viem';

/** Storage slots defined by EIP-1967 and EIP-1822 (derived in the EIPs as keccak256(label) - 1). */
const PROXY_SLOTS = {
  eip1967Implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  eip1967Admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  eip1967Beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
  eip1822Proxiable: '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7',
} as const satisfies Record<string, Hex>;

type ProxyKind = 'eip1967' | 'eip1967-beacon' | 'eip1822';

export interface ReadProxyReturnType {
  kind: ProxyKind;
  implementation?: Address;
  admin?: Address;
  beacon?: Address;
  slot: Hex;
}

/** Reads the standard proxy slots at a block; undefined when none is set. */
export async function readProxy(
  client: PublicClient,
  { address, blockNumber }: { address: Address; blockNumber: bigint },
): Promise<ReadProxyReturnType | undefined> {
  const read = (slot: Hex) => client.getStorageAt({ address, slot, blockNumber }).then(slotAddress);
  const [implementation, admin, beacon, proxiable] = await Promise.all([
    read(PROXY_SLOTS.eip1967Implementation),
    read(PROXY_SLOTS.eip1967Admin),
    read(PROXY_SLOTS.eip1967Beacon),
    read(PROXY_SLOTS.eip1822Proxiable),
  ]);
  if (implementation) {
    return {
      kind: 'eip1967',
      implementation,
      slot: PROXY_SLOTS.eip1967Implementation,
      ...(admin ? { admin } : {}),
    };
  }
  if (beacon)
    return { kind: 'eip1967-beacon', beacon, slot: PROXY_SLOTS.eip1967Beacon, ...(admin ? { admin } : {}) };
  if (proxiable) return { kind: 'eip1822', implementation: proxiable, slot: PROXY_SLOTS.eip1822Proxiable };
  return undefined;
}

function slotAddress(value: Hex | undefined): Address | undefined {
  if (!value || /^0x0*$/.test(value)) return undefined;
  const address = getAddress(`0x${value.slice(-40)}`);
  return address === zeroAddress ? undefined : address;
}
