import { readFile } from 'node:fs/promises';
import { type Address, type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { createDevnetClient } from './client.ts';
import { deployPaymentToken, PaymentTokenInfo } from './paymentToken.ts';
import { writeSecretFile } from '../stack/secretFiles.ts';

/** What the embedded stack needs for x402 payments on the devnet. */
export const DevnetPayments = z.object({
  token: PaymentTokenInfo,
  /** The facilitator's signer (devnet only); funded with gas money. */
  facilitatorKey: z.string().regex(/^0x[0-9a-f]{64}$/),
  facilitatorAddress: z.string(),
  payTo: z.string(),
  /** The payee's key (devnet only): the payments pool signs refunds with it. */
  payToKey: z.string().regex(/^0x[0-9a-f]{64}$/),
});
export type DevnetPayments = z.infer<typeof DevnetPayments>;

/**
 * The saved setup when the chain still holds the token; otherwise deploys the USDC, makes a
 * facilitator signer and a payee (whose key signs refunds), and saves them (owner-only: the file
 * holds private keys). The signer's gas balance is topped up each time.
 */
export async function loadOrDeployPayments(rpcUrl: string, file: string): Promise<DevnetPayments> {
  const client = createDevnetClient(rpcUrl);
  let payments: DevnetPayments | undefined;
  try {
    const saved = DevnetPayments.parse(JSON.parse(await readFile(file, 'utf8')));
    const code = await client.getCode({ address: saved.token.address as Address });
    if (code && code !== '0x' && (await client.getChainId()) === saved.token.chainId) payments = saved;
  } catch {
    // Missing or stale: deploy afresh below.
  }
  if (!payments) {
    const facilitatorKey = generatePrivateKey();
    const payToKey = generatePrivateKey();
    payments = {
      token: await deployPaymentToken(rpcUrl),
      facilitatorKey,
      facilitatorAddress: privateKeyToAccount(facilitatorKey).address,
      payTo: privateKeyToAccount(payToKey).address,
      payToKey,
    };
  }
  // Rewritten each time: a file an earlier version left readable by others is made private.
  await writeSecretFile(file, `${JSON.stringify(payments, null, 2)}\n`);
  await client.setBalance({
    address: privateKeyToAccount(payments.facilitatorKey as Hex).address,
    value: parseEther('1000'),
  });
  return payments;
}
