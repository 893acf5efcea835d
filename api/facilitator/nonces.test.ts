import { createWalletClient, http, parseEther, publicActions } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { testStack } from '../../test/support/fixtures.ts';
import { localNonceManager } from './nonces.ts';

describe('localNonceManager', () => {
  it('hands out consecutive nonces to concurrent sends from one chain read, and re-reads after a reset', async () => {
    const { rpcUrl } = testStack();
    const nonces = localNonceManager();
    const account = privateKeyToAccount(generatePrivateKey(), { nonceManager: nonces });
    const devnet = createDevnetClient(rpcUrl);
    await devnet.setBalance({ address: account.address, value: parseEther('10') });
    let reads = 0;
    const wallet = createWalletClient({
      account,
      transport: http(rpcUrl, {
        onFetchRequest: async (request) => {
          if ((await request.clone().text()).includes('eth_getTransactionCount')) reads++;
        },
      }),
    }).extend(publicActions);
    const chainId = await wallet.getChainId();
    const sends = await Promise.all(
      Array.from({ length: 8 }, () =>
        wallet.sendTransaction({ to: account.address, value: 1n, chain: null }),
      ),
    );
    const mined = await Promise.all(sends.map((hash) => wallet.waitForTransactionReceipt({ hash })));
    expect(mined.every((receipt) => receipt.status === 'success')).toBe(true);
    expect(reads).toBe(1);
    expect(await nonces.get({ address: account.address, chainId, client: wallet })).toBe(8);
    // Someone else spent a nonce of this account: after a reset the count comes from the chain.
    await devnet.setNonce({ address: account.address, nonce: 20 });
    nonces.reset({ address: account.address, chainId });
    expect(await nonces.consume({ address: account.address, chainId, client: wallet })).toBe(20);
    expect(reads).toBe(2);
  });
});
