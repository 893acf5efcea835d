/**
 * Networks whose money is not real: the local devnet and the public test networks of the EVM
 * chains Vigil covers. The sandbox only ever quotes on one of these.
 */
export const TEST_NETWORKS: Readonly<Record<string, string>> = {
  'eip155:31337': 'local devnet (anvil)',
  'eip155:84532': 'Base Sepolia',
  'eip155:11155111': 'Ethereum Sepolia',
  'eip155:421614': 'Arbitrum Sepolia',
  'eip155:11155420': 'OP Sepolia',
  'eip155:80002': 'Polygon Amoy',
  'eip155:43113': 'Avalanche Fuji',
  'eip155:97': 'BSC testnet',
};

export function isTestNetwork(network: string): boolean {
  return Object.hasOwn(TEST_NETWORKS, network);
}
