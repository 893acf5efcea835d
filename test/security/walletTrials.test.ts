import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import { listenOnLoopback } from '../support/listen.ts';
import { httpSend, postWalletProof, proveWallet, walletProofMessage } from '../support/walletProof.ts';

// Wallet trials only for a wallet proven by a signed message (EIP-4361, signed with viem as a
// wallet app would), over real HTTP. Every forgery a caller could try is refused.

let backend: TestBackend;
let url: string;
beforeAll(async () => {
  backend = await startTestBackend(isolatedEnv());
  url = await listenOnLoopback(backend.app);
});
afterAll(() => backend.close());

const send = () => httpSend(url);

/** One trial call of deployer_reputation (3 free calls per client, 5 per proven wallet). */
const trialCall = (headers: Record<string, string>) =>
  fetch(`${url}/api/v1/x402-tools/deployer_reputation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ chain: 'devnet', address: testStack().scenario.deployers.clean }),
  });

const reasonOf = async (response: Response) => (await response.json()) as { code: string; reason: string };

describe('wallet trials', () => {
  it('gives a wallet named in X-Wallet-Address alone nothing more than a client id', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await trialCall({
      'x-client-id': `claims-wallet-${Date.now()}`,
      'x-wallet-address': wallet,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-trial-limit')).toBe('3');
  });

  it('gives a wallet proven by its signed message the wallet allotment', async () => {
    const token = await proveWallet(send(), privateKeyToAccount(generatePrivateKey()));
    const answer = await trialCall({ 'x-wallet-proof': token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-trial-limit')).toBe('5');
    expect(answer.headers.get('x-trial-remaining')).toBe('4');
  });

  it('refuses a replayed message: its nonce is spent', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { message } = await walletProofMessage(send(), account.address);
    const signature = await account.signMessage({ message });
    expect((await postWalletProof(send(), message, signature)).status).toBe(201);
    const replay = await postWalletProof(send(), message, signature);
    expect(replay.status).toBe(401);
    expect(await reasonOf(replay)).toMatchObject({ code: 'wallet_proof_invalid', reason: 'nonce_unknown' });
  });

  it('refuses a message for another site, a nonce it never issued, an expired message and a wrong signer', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const attempt = async (
      overrides: Parameters<typeof walletProofMessage>[2],
      signer = account,
    ): Promise<{ status: number; reason: string }> => {
      const { message } = await walletProofMessage(send(), account.address, overrides);
      const response = await postWalletProof(send(), message, await signer.signMessage({ message }));
      return { status: response.status, reason: (await reasonOf(response)).reason };
    };
    expect(await attempt({ domain: 'phishing.example' })).toEqual({ status: 401, reason: 'wrong_domain' });
    expect(await attempt({ uri: 'https://phishing.example/' })).toEqual({
      status: 401,
      reason: 'wrong_domain',
    });
    expect(await attempt({ nonce: 'madeupnonce12345' })).toEqual({ status: 401, reason: 'nonce_unknown' });
    expect(await attempt({ expirationTime: new Date(Date.now() - 1_000) })).toEqual({
      status: 401,
      reason: 'expired',
    });
    expect(await attempt({ issuedAt: new Date(Date.now() - 3_600_000) })).toEqual({
      status: 401,
      reason: 'expired',
    });
    expect(await attempt({ notBefore: new Date(Date.now() + 3_600_000) })).toEqual({
      status: 401,
      reason: 'not_yet_valid',
    });
    // Signed by another key: the message names a wallet its signer does not hold.
    expect(await attempt({}, other)).toEqual({ status: 401, reason: 'bad_signature' });
  });

  it('refuses a token it never issued and a revoked one, instead of falling back to a fingerprint', async () => {
    const forged = await trialCall({
      'x-wallet-proof': 'A'.repeat(43),
      'x-client-id': `forger-${Date.now()}`,
    });
    expect(forged.status).toBe(401);
    expect(await reasonOf(forged)).toMatchObject({ code: 'wallet_proof_invalid', reason: 'token_unknown' });
    const token = await proveWallet(send(), privateKeyToAccount(generatePrivateKey()));
    expect(
      (
        await fetch(`${url}/api/v1/x402/wallet-proof`, {
          method: 'DELETE',
          headers: { 'x-wallet-proof': token },
        })
      ).status,
    ).toBe(204);
    expect((await trialCall({ 'x-wallet-proof': token })).status).toBe(401);
  });
});
