import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createDevnetClient, DevSender } from './client.ts';
import { compileContracts } from './compile.ts';
import { UNISWAP_V2_ROUTER02 } from './uniswap.ts';

const routerAbi = parseAbi([
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
]);
const ownableAbi = parseAbi(['function renounceOwnership()']);

export interface DeployCleanTokensParameters {
  count: number;
  /**
   * Dev account that deploys; give each caller its own so nonces never collide. Without one, a
   * fresh address of its own (funded and impersonated on the devnet) deploys: callers running at
   * the same time never share a sender.
   */
  accountIndex?: number;
  /** List each token against WETH on the canonical router (needs the scenario's DEX deployed). */
  withLiquidity?: boolean;
  /** Renounce ownership, as a launch that means well would. */
  renounce?: boolean;
}

/** A new address that can send on the devnet: funded, and impersonated so the node signs for it. */
async function freshSender(client: ReturnType<typeof createDevnetClient>): Promise<Address> {
  const { address } = privateKeyToAccount(generatePrivateKey());
  await client.setBalance({ address, value: parseEther('1000') });
  await client.impersonateAccount({ address });
  return address;
}

/**
 * Many distinct clean tokens, for load and durability runs that need one fresh scan per token
 * (identical scans would join one job). Transactions are pipelined and settled in chunks.
 */
export async function deployCleanTokens(
  rpcUrl: string,
  parameters: DeployCleanTokensParameters,
): Promise<Address[]> {
  const client = createDevnetClient(rpcUrl);
  const [artifacts, accounts] = await Promise.all([
    compileContracts(),
    client.request({ method: 'eth_accounts' }),
  ]);
  const from =
    parameters.accountIndex === undefined ? await freshSender(client) : accounts[parameters.accountIndex];
  const artifact = artifacts.CleanToken;
  if (from === undefined || artifact === undefined)
    throw new Error('no such dev account, or CleanToken was not compiled');
  const sender = new DevSender(client, from);
  const supply = parseEther('1000000');
  const addresses: Address[] = [];
  for (let i = 0; i < parameters.count; i++) {
    const nonce = await sender.send({
      label: `bulk token ${i}`,
      data: encodeDeployData({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args: [`Bulk ${i}`, `BULK${i}`, supply],
      }),
    });
    const token = getContractAddress({ from, nonce: BigInt(nonce) });
    addresses.push(token);
    if (parameters.withLiquidity) {
      await sender.send({
        label: `approve bulk token ${i}`,
        to: token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [UNISWAP_V2_ROUTER02, supply],
        }),
      });
      await sender.send({
        label: `list bulk token ${i}`,
        to: UNISWAP_V2_ROUTER02,
        value: parseEther('1'),
        data: encodeFunctionData({
          abi: routerAbi,
          functionName: 'addLiquidityETH',
          args: [token, supply / 2n, 0n, 0n, from, maxUint256],
        }),
      });
    }
    if (parameters.renounce) {
      await sender.send({
        label: `renounce bulk token ${i}`,
        to: token,
        data: encodeFunctionData({ abi: ownableAbi, functionName: 'renounceOwnership' }),
      });
    }
    // Settle in chunks: one long pipeline of thousands of transactions outlives receipt timeouts.
    if (i % 50 === 49) await sender.settle();
  }
  await sender.settle();
  return addresses;
}
