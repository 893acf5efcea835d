import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Address, getAddress, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDeployerReputation } from '../../scanner/deployerTool.ts';
import { DeployerCache } from '../../scanner/engines/deployer.ts';
import { ChainClients } from '../../clients/chains/chainClients.ts';
import { DEPLOYER_REPUTATION } from '../../scanner/core/risk/model.ts';
import { readScanConfig } from '../../scanner/config.ts';
import { type AnvilInstance, startAnvil } from '../../infra/devnet/anvil.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';

const require = createRequire(import.meta.url);

describe('labels as evidence in a deployer’s record', () => {
  let anvil: AnvilInstance;

  // A node that says it is Ethereum (chain id 1), so Ethereum's labels apply to its addresses.
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
  });
  afterAll(async () => anvil?.stop());

  it('says so when the deployer was first funded by an address labelled phishing/hack', async () => {
    const phishing = (
      JSON.parse(readFileSync(require.resolve('evm-labels/lib/esm/mainnet/phish-hack/all.json'), 'utf8')) as {
        address: string;
        nameTag: string;
      }[]
    ).find((entry) => entry.nameTag.length > 0);
    if (!phishing) throw new Error('no named phishing address in the label source');
    const funder = getAddress(phishing.address);
    const deployer = privateKeyToAccount(generatePrivateKey()).address;
    const devnet = createDevnetClient(anvil.url);
    await devnet.setBalance({ address: funder, value: parseEther('10') });
    for (const address of [funder, deployer]) await devnet.impersonateAccount({ address });
    const send = async (from: Address, tx: { to?: Address; value?: bigint; data?: `0x${string}` }) => {
      const hash = await devnet.sendUnsignedTransaction({ from, ...tx });
      await devnet.waitForTransactionReceipt({ hash });
    };
    await send(funder, { to: deployer, value: parseEther('1') });
    // A contract whose runtime returns 42.
    await send(deployer, { data: '0x600a600c600039600a6000f3602a60005260206000f3' });

    const chains = new ChainClients({ rpcUrls: new Map([['ethereum', [anvil.url]]]) });
    const { reputation, checks } = await getDeployerReputation(
      { chains, config: readScanConfig({}), cache: new DeployerCache(0) },
      { chain: 'ethereum', address: deployer },
    );
    expect(reputation.funded_by).toBe(funder);
    expect(reputation.funded_by_labels).toContainEqual(
      expect.objectContaining({ label: 'phish-hack', category: 'phish_hack', name_tag: phishing.nameTag }),
    );
    expect(reputation.explanation.join('\n')).toContain(`labelled phish-hack (${phishing.nameTag}`);
    expect(reputation.score).toBe(
      100 - DEPLOYER_REPUTATION.fundedByFlagged - DEPLOYER_REPUTATION.freshWallet,
    );
    const fresh = checks.find((check) => check.id === 'fresh_deployer');
    expect(JSON.stringify(fresh?.evidence)).toContain('phish-hack');
  });
});
