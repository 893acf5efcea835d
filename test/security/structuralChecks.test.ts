import { connect } from 'node:net';
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit';
import { x402Client } from '@x402/core/client';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRefund } from '../../activities/payments/signRefund.ts';
import { SOLANA_DEVNET_CAIP2 } from '../../api/facilitator/svmFacilitator.ts';
import type { PaymentReceipt } from '../../core/stores/receipts.ts';
import { facilitatorClient, settleRefund } from '../../core/x402/facilitatorClient.ts';
import { readAnyPaymentProof } from '../../core/x402/proof.ts';
import { createDevnetClient } from '../../infra/devnet/client.ts';
import { paymentTokenBalance, type PaymentTokenInfo } from '../../infra/devnet/paymentToken.ts';
import { randomNonce, signAuthorization } from '../support/attacks.ts';
import { isolatedEnv, startTestBackend, testStack, type TestBackend } from '../support/fixtures.ts';
import {
  fundedPayer,
  payerClient,
  paymentRequiredFor,
  requirementsFor,
  setupPaymentToken,
  startTestFacilitator,
  type TestFacilitator,
} from '../support/payments.ts';
import { startRecordingRpc } from '../support/recordingRpc.ts';

const PRICE = 10_000n;
/** The reasons the structural check (and only it, or a payload the engine finds malformed) answers. */
const STRUCTURAL = ['invalid_x402_version', 'invalid_payment_requirements', 'invalid_payload'];

// The facilitator now checks its bodies against a schema before its engine reads them, a tool call
// without a body is read as no input, and an invoice amount is bounded in the schema. Each attack
// below tries to make one of those three changes pay out, settle for free, spend the signer's gas,
// or refuse a payment the official clients make.
describe('the x402 structural checks (attacks)', () => {
  const { rpcUrl, solanaRpcUrl, solanaPayments, scenario } = testStack();
  const chain = createDevnetClient(rpcUrl);
  const payeeKey = generatePrivateKey();
  const payTo = privateKeyToAccount(payeeKey).address;
  let token: PaymentTokenInfo;
  let rpc: Awaited<ReturnType<typeof startRecordingRpc>>;
  let fac: TestFacilitator;
  let backend: TestBackend;
  let api = '';

  beforeAll(async () => {
    [token, rpc] = await Promise.all([setupPaymentToken(rpcUrl), startRecordingRpc(rpcUrl)]);
    const env = isolatedEnv();
    fac = await startTestFacilitator(env, rpc.url, token, { payees: [payTo], solana: true });
    backend = await startTestBackend({
      ...env,
      FACILITATOR_URL: fac.url,
      FACILITATOR_AUTH_TOKEN: fac.token,
      X402_ASSET: token.address,
      X402_PAY_TO: payTo,
    });
    api = await backend.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await backend?.close();
    await fac?.close();
    await rpc?.close();
  });

  /** A body sent as it is written (so duplicate keys and `__proto__` reach the parser). */
  const rawPost = async (path: string, text: string) => {
    const response = await fac.app.inject({
      method: 'POST',
      url: path,
      headers: { ...fac.auth, 'content-type': 'application/json' },
      payload: text,
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };
  const envelope = (paymentPayload: unknown, paymentRequirements: unknown) =>
    JSON.stringify({ x402Version: 2, paymentPayload, paymentRequirements });
  const signerState = async () =>
    Promise.all([
      chain.getTransactionCount({ address: fac.signer, blockTag: 'pending' }),
      chain.getBalance({ address: fac.signer }),
    ]);

  it('refuses bodies whose types, versions or network names only look right with 400, before any chain read', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signAuthorization(payer.privateKey, token, requirements, {
      to: payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    const authorization = (payload.payload as { authorization: Record<string, string> }).authorization;
    const withNetwork = (network: string) => {
      const varied = { ...requirements, network };
      return envelope({ ...payload, accepted: varied }, varied);
    };
    const solana = { ...requirements, network: SOLANA_DEVNET_CAIP2 };
    const cases: [string, string, string][] = [
      [
        'the version as a string',
        JSON.stringify({ ...JSON.parse(envelope(payload, requirements)), x402Version: '2' }),
        'invalid_x402_version',
      ],
      [
        'the amount as a number',
        envelope(payload, { ...requirements, amount: 10_000 }),
        'invalid_payment_requirements',
      ],
      [
        'a negative amount',
        envelope(payload, { ...requirements, amount: '-10000' }),
        'invalid_payment_requirements',
      ],
      [
        'an amount in exponent form',
        envelope(payload, { ...requirements, amount: '1e4' }),
        'invalid_payment_requirements',
      ],
      [
        'the timeout as a string',
        envelope(payload, { ...requirements, maxTimeoutSeconds: '300' }),
        'invalid_payment_requirements',
      ],
      ['fullwidth digits in the chain id', withNetwork('eip155:３１３３７'), 'invalid_payment_requirements'],
      ['Arabic-Indic digits in the chain id', withNetwork('eip155:٣١٣٣٧'), 'invalid_payment_requirements'],
      [
        'a trailing newline after the chain id',
        withNetwork('eip155:31337\n'),
        'invalid_payment_requirements',
      ],
      ['a trailing space after the chain id', withNetwork('eip155:31337 '), 'invalid_payment_requirements'],
      ['an upper-case namespace', withNetwork('EIP155:31337'), 'invalid_payment_requirements'],
      ['a Cyrillic е in the namespace', withNetwork('\u0435ip155:31337'), 'invalid_payment_requirements'],
      [
        'a Cyrillic а in the Solana cluster',
        withNetwork('solana:EtWTRABZ\u0430Yq6iMfeYKouRu166VU2xqa1'),
        'invalid_payment_requirements',
      ],
      [
        'a zero-width space in the Solana namespace',
        withNetwork('sol\u200bana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'),
        'invalid_payment_requirements',
      ],
      ['the payload as version 1', envelope({ ...payload, x402Version: 1 }, requirements), 'invalid_payload'],
      [
        'the value as a number',
        envelope(
          { ...payload, payload: { ...payload.payload, authorization: { ...authorization, value: 10_000 } } },
          requirements,
        ),
        'invalid_payload',
      ],
      [
        'an EVM requirement accepted as a Solana one',
        envelope({ ...payload, accepted: solana }, requirements),
        'invalid_payload',
      ],
      // The engine picks the Solana facilitator by paymentRequirements.network: an EIP-3009
      // authorization must never reach it (nor a Solana transaction the EVM one).
      [
        'an EIP-3009 authorization on the Solana path',
        envelope({ ...payload, accepted: solana }, solana),
        'invalid_payload',
      ],
      [
        'a Solana transaction on the EVM path',
        envelope({ ...payload, payload: { transaction: 'AQID' } }, requirements),
        'invalid_payload',
      ],
      [
        'a signature that is not hex',
        envelope({ ...payload, payload: { ...payload.payload, signature: '0xzz' } }, requirements),
        'invalid_payload',
      ],
      ['requirements as an array', envelope(payload, [requirements]), 'invalid_payment_requirements'],
    ];
    rpc.calls.length = 0;
    for (const [label, text, reason] of cases)
      for (const path of ['/verify', '/settle', '/refund']) {
        const body = path === '/refund' ? text.replace(/}$/, ',"refundOf":"0x00"}') : text;
        const answer = await rawPost(path, body);
        expect(answer.status, `${label} on ${path}`).toBe(400);
        expect(answer.body['invalidReason'] ?? answer.body['errorReason'], `${label} on ${path}`).toBe(
          reason,
        );
        expect(answer.body['isValid'] ?? answer.body['success']).toBe(false);
      }
    expect(rpc.calls).toEqual([]);
  });

  it('never verifies, settles or spends gas for bodies that pass the structural check but differ from what was signed (accepted, duplicate keys, prototype keys, other chains)', async () => {
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    const requirements = requirementsFor(token, payTo, PRICE);
    const payload = await signAuthorization(payer.privateKey, token, requirements, {
      to: payTo,
      value: PRICE,
      nonce: randomNonce(),
    });
    const payloadText = JSON.stringify(payload);
    const requirementsText = JSON.stringify(requirements);
    const plain = envelope(payload, requirements);
    /** `text` with every match of `pattern` replaced (and at least one replaced). */
    const twice = (text: string, pattern: RegExp, by: string) => {
      const changed = text.replace(pattern, by);
      if (changed === text) throw new Error(`${String(pattern)} is not in the body`);
      return changed;
    };
    const withRequirements = (varied: PaymentRequirements) =>
      envelope({ ...payload, accepted: varied }, varied);
    const cases: [string, string][] = [
      // `accepted` says less than paymentRequirements, or the other way round.
      [
        'accepted for 1 unit',
        envelope({ ...payload, accepted: { ...requirements, amount: '1' } }, requirements),
      ],
      [
        'accepted to a stranger',
        envelope({ ...payload, accepted: { ...requirements, payTo: stranger } }, requirements),
      ],
      ['requirements to a stranger', envelope(payload, { ...requirements, payTo: stranger })],
      ['requirements for double', envelope(payload, { ...requirements, amount: String(PRICE * 2n) })],
      ['requirements for half', envelope(payload, { ...requirements, amount: String(PRICE / 2n) })],
      // Names that pass the pattern but are not this chain.
      ['another EVM chain', withRequirements({ ...requirements, network: 'eip155:1' })],
      ['the chain id with a leading zero', withRequirements({ ...requirements, network: 'eip155:031337' })],
      // Duplicate keys: JSON.parse keeps the last one, for the check and the engine alike (in
      // accepted and paymentRequirements both, so only the engine's own checks stand in the way).
      [
        'a duplicate amount ending in dust',
        twice(plain, /"amount":"10000"/g, '"amount":"10000","amount":"1"'),
      ],
      [
        'a duplicate payTo ending in a stranger',
        twice(plain, /"payTo":"(0x[0-9a-fA-F]{40})"/g, `"payTo":"$1","payTo":"${stranger}"`),
      ],
      [
        'a duplicate authorization recipient',
        twice(plain, /"to":"(0x[0-9a-fA-F]{40})"/g, `"to":"$1","to":"${stranger}"`),
      ],
      [
        'a duplicate network ending on Solana',
        twice(
          plain,
          /"network":"eip155:31337"/g,
          `"network":"eip155:31337","network":"${SOLANA_DEVNET_CAIP2}"`,
        ),
      ],
      [
        'a duplicate network ending on another EVM chain',
        twice(plain, /"network":"eip155:31337"/g, '"network":"eip155:31337","network":"eip155:1"'),
      ],
      // Prototype keys: Fastify's parser refuses them; nothing may treat them as fields.
      [
        '__proto__ carrying the requirements',
        `{"x402Version":2,"paymentPayload":${payloadText},"__proto__":{"paymentRequirements":${requirementsText}}}`,
      ],
      [
        '__proto__ inside the requirements',
        twice(plain, /"amount":"10000"/g, '"__proto__":{"amount":"1"},"amount":"10000"'),
      ],
      [
        'constructor.prototype at the top',
        `{"x402Version":2,"paymentPayload":${payloadText},"paymentRequirements":${requirementsText},"constructor":{"prototype":{"isValid":true}}}`,
      ],
      // Extra fields anywhere are carried, never read as something else.
      [
        'extra top-level fields',
        JSON.stringify({
          ...JSON.parse(envelope(payload, requirements)),
          isValid: true,
          success: true,
          paymentRequirements: { ...requirements, amount: '1' },
        }),
      ],
    ];
    const before = await signerState();
    const balances = () =>
      Promise.all(
        [payer.account.address, payTo, stranger].map((a) => paymentTokenBalance(rpcUrl, token.address, a)),
      );
    const owned = await balances();
    const outcomes: Record<string, unknown>[] = [];
    for (const [label, text] of cases)
      for (const path of ['/verify', '/settle']) {
        const answer = await rawPost(path, text);
        outcomes.push({
          label,
          path,
          status: answer.status,
          ok: answer.body['isValid'] ?? answer.body['success'],
        });
      }
    expect(outcomes.filter((outcome) => outcome['ok'] === true)).toEqual([]);
    expect(outcomes.filter((outcome) => Number(outcome['status']) >= 500)).toEqual([]);
    // Prototype keys never reach a handler: Fastify's parser refuses them.
    expect(
      outcomes
        .filter((outcome) => /__proto__|constructor/.test(String(outcome['label'])))
        .map((o) => o['status']),
    ).toEqual([400, 400, 400, 400, 400, 400]);
    expect(await signerState()).toEqual(before);
    expect(await balances()).toEqual(owned);
    // The payment itself is still good: nothing above spent or poisoned it.
    const verdict = await rawPost('/verify', envelope(payload, requirements));
    expect(verdict).toMatchObject({ status: 200, body: { isValid: true } });
  });

  it('lets through what the official clients send: @x402/evm and @x402/svm exact payloads, through the backend’s proof reader and the official facilitator client, and the refunds Vigil signs', async () => {
    const client = facilitatorClient({ url: fac.url, token: fac.token }, 10_000);
    const payer = await fundedPayer(rpcUrl, token, 1_000_000n);
    const requirements = requirementsFor(token, payTo, PRICE);
    const required: PaymentRequired = {
      ...paymentRequiredFor(requirements),
      resource: { url: 'http://vigil.test/paid', description: 'One call', mimeType: 'application/json' },
      extensions: { bazaar: { info: { input: { type: 'http', method: 'POST' } } } },
    };
    const evm = await payerClient(payer.privateKey, token).createPaymentPayload(required);
    // As the backend hands it on: decoded from the header with the official schema.
    const evmProof = readAnyPaymentProof({ 'payment-signature': encodePaymentSignatureHeader(evm) });
    if (!evmProof) throw new Error('no proof read');
    await expect(client.verify(evmProof.payload, requirements)).resolves.toMatchObject({ isValid: true });
    await expect(client.verify(evm, requirements)).resolves.toMatchObject({ isValid: true });

    const entry = solanaPayments.payers[15];
    if (!entry) throw new Error('the devnet has too few payers');
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(entry.secretKey));
    const solana: PaymentRequirements = {
      scheme: 'exact',
      network: SOLANA_DEVNET_CAIP2,
      amount: PRICE.toString(),
      asset: solanaPayments.mint,
      payTo: solanaPayments.payTo.address,
      maxTimeoutSeconds: 60,
      extra: { feePayer: solanaPayments.feePayer.address },
    };
    const svm: PaymentPayload = await x402Client
      .fromConfig({
        schemes: [
          { network: SOLANA_DEVNET_CAIP2, client: new ExactSvmScheme(signer, { rpcUrl: solanaRpcUrl }) },
        ],
        spendControls: false,
      })
      .createPaymentPayload({ ...required, accepts: [solana] });
    const svmProof = readAnyPaymentProof({ 'payment-signature': encodePaymentSignatureHeader(svm) });
    if (!svmProof) throw new Error('no proof read');
    await expect(client.verify(svmProof.payload, solana)).resolves.toMatchObject({ isValid: true });

    // A refund as the payments pool signs and sends it is read by the engine, not refused as a shape
    // (it is refused here because no payment was settled in refundOf).
    const refund = await signRefund({
      payeePrivateKey: payeeKey,
      receipt: {
        pay_to: payTo,
        payer: payer.account.address,
        network: requirements.network,
        asset: token.address,
        amount: PRICE.toString(),
        transaction: `0x${'ab'.repeat(32)}`,
      } as PaymentReceipt,
      domain: { name: token.name, version: token.version },
    });
    const refused = await settleRefund({ url: fac.url, token: fac.token }, refund, 10_000);
    expect(refused.success).toBe(false);
    expect(STRUCTURAL).not.toContain(refused.errorReason);
  });

  /** Writes `request` on a raw connection and answers the status of every response it got back. */
  const rawHttp = (request: string) =>
    new Promise<{ statuses: number[]; text: string }>((resolve, reject) => {
      const { hostname, port } = new URL(api);
      const socket = connect(Number(port), hostname);
      let text = '';
      const timer = setTimeout(() => socket.destroy(), 5_000);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ statuses: [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1])), text });
      });
      // Written without a half-close (Node drops an answer still being made to a half-closed
      // connection); each request asks to close, or ends in a malformed one.
      socket.write(request);
    });
  const head = (path: string, lines: string[]) =>
    [`POST ${path} HTTP/1.1`, 'Host: vigil.test', ...lines, '', ''].join('\r\n');

  it('never runs a paid tool, or gives its trial, for a body hidden from the no-body rule (length 0 with a body, no content type, empty chunks, JSON null)', async () => {
    const input = JSON.stringify({ chain: 'devnet', address: scenario.tokens.clean.address });
    const honeypot = '/api/v1/x402-tools/honeypot_check';
    // eth_labels_stats is paid and takes {} as its input: no body is that input, and it is paid for.
    const stats = '/api/v1/x402-tools/eth_labels_stats';
    // undefined: whichever refusal comes first (Node answers the smuggled bytes as a malformed
    // request, and may do so before the handler answers the empty one).
    const cases: [string, string, number | undefined][] = [
      ['length 0 with the input smuggled after it', head(honeypot, ['Content-Length: 0']) + input, undefined],
      [
        'length 0 and a JSON type with the input after it',
        head(honeypot, ['Content-Length: 0', 'Content-Type: application/json']) + input,
        undefined,
      ],
      [
        'the input without a content type',
        head(honeypot, [`Content-Length: ${input.length}`, 'Connection: close']) + input,
        415,
      ],
      [
        'the input chunked without a content type',
        head(honeypot, ['Transfer-Encoding: chunked', 'Connection: close']) +
          `${input.length.toString(16)}\r\n${input}\r\n0\r\n\r\n`,
        415,
      ],
      [
        'an empty content type',
        head(honeypot, ['Content-Type: ', `Content-Length: ${input.length}`, 'Connection: close']) + input,
        415,
      ],
      [
        'no body to a paid tool that takes none',
        head(stats, ['Content-Length: 0', 'Connection: close']),
        402,
      ],
      ['no body at all to a paid tool that takes none', head(stats, ['Connection: close']), 402],
      [
        'empty chunks to a paid tool that takes none',
        head(stats, ['Transfer-Encoding: chunked', 'Connection: close']) + '0\r\n\r\n',
        415,
      ],
      [
        'JSON null to a paid tool that takes none',
        head(stats, ['Content-Type: application/json', 'Content-Length: 4', 'Connection: close']) + 'null',
        422,
      ],
      ['a forged proof with no body', head(stats, ['X-PAYMENT: e30=', 'Connection: close']), 402],
    ];
    for (const [label, request, first] of cases) {
      const { statuses, text } = await rawHttp(request);
      expect(statuses.length, label).toBeGreaterThan(0);
      if (first !== undefined) expect(statuses[0], `${label}: ${text.slice(0, 300)}`).toBe(first);
      expect(text, label).not.toMatch(/"data":\s*[^n\s]/);
      expect(
        statuses.filter((status) => status < 300),
        label,
      ).toEqual([]);
    }
  });

  it('quotes an invoice amount exactly as shown, and refuses one that rounds, is below a cent, is not a finite number, or is past the limit', async () => {
    const create = async (amount: string) => {
      const response = await backend.app.inject({
        method: 'POST',
        url: '/api/v1/x402/invoice',
        headers: { 'content-type': 'application/json' },
        payload: `{"amount_usd":${amount},"description":"attack"}`,
      });
      return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
    };
    const refused = [
      '0.0100000001',
      '1e-7',
      '0.000001',
      '0.009999999',
      '0.0099999999999',
      '-0',
      '0',
      '-0.01',
      '1.0000005',
      '999999.9999995',
      '1000000.000001',
      '5.000001', // past the facilitator's 5,000,000 atomic units
      '1e21',
      '"0.01"',
      '"NaN"',
      '"Infinity"',
      'null',
      'true',
      '[0.01]',
    ];
    for (const amount of refused) {
      const answer = await create(amount);
      expect(answer.status, amount).toBe(422);
    }
    for (const literal of ['NaN', 'Infinity', '-Infinity', '0x10', '.5', '01'])
      expect((await create(literal)).status, literal).toBe(400);
    const accepted: [string, number, string][] = [
      ['0.01', 0.01, '10000'],
      ['1e-2', 0.01, '10000'],
      ['0.29', 0.29, '290000'],
      ['1.15', 1.15, '1150000'],
      ['0.07', 0.07, '70000'],
      ['4.999999', 4.999999, '4999999'],
      ['5', 5, '5000000'],
      // Beyond a double's precision it is the double that is shown and charged: 0.01 both times.
      ['0.0100000000000000001', 0.01, '10000'],
      // 0.1 + 0.2 as JavaScript prints it: the double next to 0.3, within zod's multipleOf tolerance
      // and usdToAtomic's, charged as 0.3 (4e-17 USD less than shown, never a unit more).
      ['0.30000000000000004', 0.30000000000000004, '300000'],
    ];
    for (const [amount, shown, atomic] of accepted) {
      const answer = await create(amount);
      expect(answer.status, amount).toBe(201);
      expect(answer.body, amount).toMatchObject({ amount_usd: shown, amount: atomic });
      expect((answer.body['accepts'] as PaymentRequirements[])[0]?.amount, amount).toBe(atomic);
      expect(BigInt(atomic)).toBe(BigInt(Math.round(shown * 1_000_000)));
      expect(Math.abs(shown * 1_000_000 - Number(atomic))).toBeLessThan(1e-6);
    }
  });
});
