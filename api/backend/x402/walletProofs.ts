import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { getAddress, type Hex, verifyMessage } from 'viem';
import { generateSiweNonce, parseSiweMessage } from 'viem/siwe';
import { orStoreUnavailable } from '../../../core/errors/storeUnavailable.ts';
import { VigilError } from '../../../core/errors/vigilError.ts';

export interface WalletProofOptions {
  redis: Redis;
  /** The backend's public URL: a message must name its host as `domain` and its origin in `uri`. */
  publicUrl: string;
  ttlSeconds: number;
  nonceTtlSeconds: number;
}

const WalletProofFailure = {
  malformed: 'malformed',
  wrongDomain: 'wrong_domain',
  badSignature: 'bad_signature',
  nonceUnknown: 'nonce_unknown',
  expired: 'expired',
  notYetValid: 'not_yet_valid',
} as const;
type WalletProofFailure = (typeof WalletProofFailure)[keyof typeof WalletProofFailure];

/** Clocks of wallets and servers drift; a message may be issued this far "in the future". */
const CLOCK_SKEW_MS = 60_000;

/**
 * Wallet proofs for trials: Sign-In with Ethereum (EIP-4361). The server hands out a single-use
 * nonce; the wallet signs a message naming this service's domain and URI, its address, a chain
 * id and that nonce (personal_sign); the server checks the message with viem's SIWE parser, the
 * domain, the time bounds and the signature (EOA), spends the nonce, and answers a random proof
 * token, kept in Redis for a short time under its hash. X-Wallet-Proof: <token> then counts free
 * calls against the wallet. A replayed message finds its nonce spent; a message signed for
 * another site names the wrong domain.
 */
export class WalletProofs {
  readonly #options: WalletProofOptions;
  readonly #domain: string;
  readonly #origin: string;

  constructor(options: WalletProofOptions) {
    this.#options = options;
    const url = new URL(options.publicUrl);
    this.#domain = url.host;
    this.#origin = url.origin;
  }

  get domain(): string {
    return this.#domain;
  }

  get uri(): string {
    return this.#origin;
  }

  /** A fresh single-use nonce and the fields the message must carry. */
  async nonce(): Promise<{ nonce: string; issuedAt: Date; expiresAt: Date }> {
    const nonce = generateSiweNonce();
    await orStoreUnavailable('Sign-in nonces', () =>
      this.#options.redis.set(this.#nonceKey(nonce), '1', 'EX', this.#options.nonceTtlSeconds),
    );
    const issuedAt = new Date();
    return {
      nonce,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + this.#options.nonceTtlSeconds * 1000),
    };
  }

  /** Checks a signed message and spends its nonce; answers a proof token for its address. */
  async prove(
    message: string,
    signature: Hex,
  ): Promise<{ token: string; address: string; chainId: number; expiresAt: Date }> {
    const parsed = parseSiweMessage(message);
    const { address, nonce, domain, uri, chainId, issuedAt } = parsed;
    if (!address || !nonce || !domain || !uri || !chainId || !issuedAt || parsed.version !== '1')
      throw refused(
        WalletProofFailure.malformed,
        'The message is not an EIP-4361 message with every required field.',
      );
    if (domain !== this.#domain || originOf(uri) !== this.#origin)
      throw refused(
        WalletProofFailure.wrongDomain,
        `The message must name domain ${this.#domain} and a URI on ${this.#origin}.`,
      );
    const now = Date.now();
    if (issuedAt.getTime() > now + CLOCK_SKEW_MS || (parsed.notBefore && parsed.notBefore.getTime() > now))
      throw refused(WalletProofFailure.notYetValid, 'The message is not valid yet.');
    if (
      (parsed.expirationTime && parsed.expirationTime.getTime() <= now) ||
      issuedAt.getTime() < now - this.#options.nonceTtlSeconds * 1000 - CLOCK_SKEW_MS
    )
      throw refused(WalletProofFailure.expired, 'The message has expired; sign a new one.');
    // A malformed signature throws; it is as refused as a wrong one.
    const valid = await verifyMessage({ address, message, signature }).catch(() => false);
    if (!valid)
      throw refused(
        WalletProofFailure.badSignature,
        'The signature is not the address’s signature of this message.',
      );
    // Spent only once the signature holds, so nobody can burn another wallet's nonce; GETDEL makes
    // a replay (or two concurrent uses) of one message find it gone.
    const issued = await orStoreUnavailable('Sign-in nonces', () =>
      this.#options.redis.getdel(this.#nonceKey(nonce)),
    );
    if (issued === null)
      throw refused(
        WalletProofFailure.nonceUnknown,
        'The nonce was never issued here, has expired or was already used.',
      );
    const untilExpiry = parsed.expirationTime
      ? parsed.expirationTime.getTime() - now
      : Number.POSITIVE_INFINITY;
    const ttlMs = Math.max(1_000, Math.min(this.#options.ttlSeconds * 1000, untilExpiry));
    const token = randomBytes(32).toString('base64url');
    const checksummed = getAddress(address);
    await orStoreUnavailable('Wallet proofs', () =>
      this.#options.redis.set(this.#tokenKey(token), checksummed, 'PX', ttlMs),
    );
    return { token, address: checksummed, chainId, expiresAt: new Date(now + ttlMs) };
  }

  /** The wallet a proof token stands for, or null when it is unknown or expired. */
  async resolve(token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    return orStoreUnavailable('Wallet proofs', () => this.#options.redis.get(this.#tokenKey(token)));
  }

  async revoke(token: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
    return (
      (await orStoreUnavailable('Wallet proofs', () => this.#options.redis.del(this.#tokenKey(token)))) > 0
    );
  }

  #nonceKey(nonce: string): string {
    return `walletproof:nonce:${nonce}`;
  }

  /** Tokens are stored by hash: a Redis dump does not hand out usable tokens. */
  #tokenKey(token: string): string {
    return `walletproof:token:${createHash('sha256').update(token).digest('hex')}`;
  }
}

function refused(reason: WalletProofFailure, detail: string): VigilError {
  return new VigilError('wallet_proof_invalid', detail, { extensions: { reason } });
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}
