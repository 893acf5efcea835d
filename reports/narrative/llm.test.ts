import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fact } from '../core/schema.ts';
import { keepCitedSentences } from './citations.ts';
import { llmNarrative, NarrativeModelFailed } from './llm.ts';

const facts: Fact[] = [
  { id: 'scan-verdict', text: 'TOK scores 80/100 (high).', evidence: [] },
  { id: 'liquidity-price', text: 'The price fell 90%.', evidence: [] },
];

describe('keeping cited sentences', () => {
  it('keeps sentences citing a known fact, drops uncited ones and those citing only invented ids', () => {
    const { sentences, dropped } = keepCitedSentences(
      'TOK is high risk [scan-verdict]. It will surely moon. Its price fell hard [liquidity-price][scan-verdict]. ' +
        'The team is doxxed [team-doxxed].',
      facts,
    );
    expect(sentences).toEqual([
      { text: 'TOK is high risk.', cites: ['scan-verdict'] },
      { text: 'Its price fell hard.', cites: ['liquidity-price', 'scan-verdict'] },
    ]);
    expect(dropped).toBe(2);
  });
});

describe('the narrative from an OpenAI-compatible endpoint', () => {
  let server: Server;
  let url: string;
  const seen: {
    auth?: string | undefined;
    body?: { model: string; messages: { content: string }[] } | undefined;
  } = {};
  let answer: (res: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        seen.auth = req.headers.authorization;
        seen.body = JSON.parse(raw) as typeof seen.body;
        if (req.url !== '/v1/chat/completions') {
          res.writeHead(404).end();
          return;
        }
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settings = () => ({ url, apiKey: 'sk-test', model: 'local-model', timeoutMs: 5_000 });

  it('sends the facts as context and keeps only the sentences that cite them', async () => {
    answer = (res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [
            {
              message: {
                content:
                  'The scan rates it high risk [scan-verdict]. Buy now before it is too late. ' +
                  'The price collapsed <script>alert(1)</script> [liquidity-price].',
              },
            },
          ],
        }),
      );
    const narrative = await llmNarrative(settings(), facts);
    expect(narrative.author).toBe('llm');
    expect(narrative.model).toBe('local-model');
    expect(narrative.dropped).toBe(1);
    expect(narrative.sentences.map((sentence) => sentence.cites)).toEqual([
      ['scan-verdict'],
      ['liquidity-price'],
    ]);
    expect(seen.auth).toBe('Bearer sk-test');
    expect(seen.body?.model).toBe('local-model');
    expect(JSON.parse(seen.body?.messages[1]?.content ?? '[]')).toEqual([
      { id: 'scan-verdict', fact: 'TOK scores 80/100 (high).' },
      { id: 'liquidity-price', fact: 'The price fell 90%.' },
    ]);
  });

  it('fails clearly when the endpoint answers an error or no completion', async () => {
    answer = (res) => res.writeHead(500).end('boom');
    await expect(llmNarrative(settings(), facts)).rejects.toBeInstanceOf(NarrativeModelFailed);
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices":[]}');
    await expect(llmNarrative(settings(), facts)).rejects.toThrow(/no chat completion/);
  });
});
