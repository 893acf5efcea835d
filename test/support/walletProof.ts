import type { PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';

/** How a test reaches a backend: real HTTP (a base URL), answering like fetch. */
type Send = (path: string, init?: RequestInit) => Promise<Response>;

export interface WalletProofMessage {
  message: string;
  nonce: string;
}

/**
 * The message a wallet signs to prove itself (EIP-4361), built with viem's own SIWE helper from a
 * nonce the backend issued, as a wallet app would. `overrides` lets attack tests sign the wrong thing.
 */
export async function walletProofMessage(
  send: Send,
  address: `0x${string}`,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
): Promise<WalletProofMessage> {
  const issued = (await (await send('/api/v1/x402/wallet-proof/nonce')).json()) as {
    nonce: string;
    domain: string;
    uri: string;
  };
  const message = createSiweMessage({
    address,
    chainId: 1,
    domain: issued.domain,
    nonce: issued.nonce,
    uri: issued.uri,
    version: '1',
    issuedAt: new Date(),
    statement: 'Use my wallet for Vigil free trials.',
    ...overrides,
  });
  return { message, nonce: issued.nonce };
}

/** Signs the message and posts it; answers the response (201 with the token when it holds). */
export async function postWalletProof(
  send: Send,
  message: string,
  signature: `0x${string}`,
): Promise<Response> {
  return send('/api/v1/x402/wallet-proof', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  });
}

/** The whole flow: a proof token for `account`'s wallet. */
export async function proveWallet(send: Send, account: PrivateKeyAccount): Promise<string> {
  const { message } = await walletProofMessage(send, account.address);
  const response = await postWalletProof(send, message, await account.signMessage({ message }));
  if (response.status !== 201)
    throw new Error(`wallet proof refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** A Send over real HTTP to a base URL. */
export function httpSend(baseUrl: string): Send {
  return (path, init) => fetch(`${baseUrl}${path}`, init);
}
