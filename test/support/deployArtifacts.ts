import { type Address, encodeDeployData, getContractAddress, type Hash } from 'viem';
import type { DevSender } from '../../infra/devnet/client.ts';
import type { Artifacts } from '../../infra/devnet/compile.ts';

/** Where a contract was deployed: its address, and the block and transaction that made it. */
export interface Deployed {
  address: Address;
  block: bigint;
  tx: Hash;
}

/** Deploys compiled contracts by name from one dev account, each mined before the next is sent. */
export function deployArtifacts(sender: DevSender, artifacts: Artifacts) {
  return async (name: string, args: readonly unknown[]): Promise<Deployed> => {
    const artifact = artifacts[name];
    if (!artifact) throw new Error(`${name} was not compiled`);
    const nonce = await sender.send({
      label: name,
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args }),
    });
    const [receipt] = await sender.settle();
    if (!receipt) throw new Error(`${name} was not deployed`);
    return {
      address: getContractAddress({ from: sender.address, nonce: BigInt(nonce) }),
      block: receipt.blockNumber,
      tx: receipt.transactionHash,
    };
  };
}
