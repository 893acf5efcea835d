import { z } from 'zod';
import { Problem } from '../../plugins/problem.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { WalletProofs } from '../x402/walletProofs.ts';

const Nonce = z
  .object({
    nonce: z.string().describe('Single use; put it in the message as `Nonce`'),
    domain: z.string().describe('The message’s domain (this service’s host)'),
    uri: z.string().describe('The message’s URI (this service’s origin, or a path on it)'),
    version: z.literal('1'),
    issued_at: z.iso.datetime(),
    expires_at: z.iso.datetime().describe('Sign and send the message before then'),
    example: z.string().describe('The message to sign, with your address and chain id filled in'),
  })
  .meta({ id: 'WalletProofNonce' });

const ProveBody = z
  .object({
    message: z.string().min(1).max(4_096).describe('The EIP-4361 message exactly as signed'),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, 'a 65-byte 0x-prefixed signature')
      .describe('personal_sign of the message by its address'),
  })
  .strict()
  .meta({ id: 'WalletProofRequest' });

const Proof = z
  .object({
    token: z.string().describe('Send as X-Wallet-Proof with trial calls'),
    address: z.string(),
    chain_id: z.number().int(),
    expires_at: z.iso.datetime(),
    header: z.literal('X-Wallet-Proof'),
  })
  .meta({ id: 'WalletProof' });

const ProofHeader = z.object({ 'x-wallet-proof': z.string().max(128) });

/**
 * Wallet proofs (Sign-In with Ethereum, EIP-4361): a nonce, the signed message, a short-lived
 * token. A proven wallet gets the larger free-trial allotment; X-Wallet-Address alone proves nothing.
 */
export function walletProofRoutes(app: VigilApp, proofs: WalletProofs): void {
  app.get(
    '/api/v1/x402/wallet-proof/nonce',
    {
      schema: {
        tags: ['x402'],
        summary: 'A single-use nonce for a Sign-In with Ethereum message (wallet trials)',
        response: { 200: Nonce, 429: Problem, 503: Problem },
      },
    },
    async (_request, reply) => {
      const { nonce, issuedAt, expiresAt } = await proofs.nonce();
      reply.header('cache-control', 'no-store');
      return {
        nonce,
        domain: proofs.domain,
        uri: proofs.uri,
        version: '1' as const,
        issued_at: issuedAt.toISOString(),
        expires_at: expiresAt.toISOString(),
        example: [
          `${proofs.domain} wants you to sign in with your Ethereum account:`,
          '<your address, EIP-55 checksummed>',
          '',
          'Use my wallet for Vigil free trials.',
          '',
          `URI: ${proofs.uri}`,
          'Version: 1',
          'Chain ID: <any chain id, e.g. 1>',
          `Nonce: ${nonce}`,
          `Issued At: ${issuedAt.toISOString()}`,
        ].join('\n'),
      };
    },
  );

  app.post(
    '/api/v1/x402/wallet-proof',
    {
      schema: {
        tags: ['x402'],
        summary: 'Prove a wallet with a signed EIP-4361 message; answers a proof token',
        description:
          'The message must name this service’s domain and URI, carry a nonce from /wallet-proof/nonce (single use), ' +
          'and be signed by its address (personal_sign). Send the token as X-Wallet-Proof: trial calls then count ' +
          'against the wallet’s larger allotment (and still against the caller’s network).',
        body: ProveBody,
        response: { 201: Proof, 401: Problem, 422: Problem, 429: Problem, 503: Problem },
      },
    },
    async (request, reply) => {
      const proof = await proofs.prove(request.body.message, request.body.signature as `0x${string}`);
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({
          token: proof.token,
          address: proof.address,
          chain_id: proof.chainId,
          expires_at: proof.expiresAt.toISOString(),
          header: 'X-Wallet-Proof' as const,
        });
    },
  );

  app.delete(
    '/api/v1/x402/wallet-proof',
    {
      schema: {
        tags: ['x402'],
        summary: 'Revoke the wallet proof token sent in X-Wallet-Proof',
        headers: ProofHeader,
        response: { 204: z.null(), 400: Problem, 404: Problem },
      },
    },
    async (request, reply) => {
      await proofs.revoke(request.headers['x-wallet-proof']);
      // Revoking twice, or a token that never was, ends the same way: the token is not valid.
      return reply.code(204).send(null);
    },
  );
}
