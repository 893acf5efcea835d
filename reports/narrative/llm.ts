import { z } from 'zod';
import { redactUrl } from '../../core/errors/redactUrl.ts';
import type { LlmSettings } from '../config.ts';
import { type Fact, type Narrative, NarrativeAuthor } from '../core/schema.ts';
import { keepCitedSentences } from './citations.ts';

const ChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

const INSTRUCTIONS = [
  'You write the summary of a crypto research report for a cautious reader.',
  'Use only the facts given as JSON; each has an id.',
  'End every sentence with the ids of the facts it rests on in square brackets, e.g. [scan-verdict].',
  'A sentence without a fact id will be removed. Do not invent numbers. Plain text, no markdown, at most 8 sentences.',
].join(' ');

export class NarrativeModelFailed extends Error {
  override readonly name = 'NarrativeModelFailed';
}

/**
 * The report's prose from an OpenAI-compatible chat endpoint: the facts go in as structured
 * context, and every sentence that comes back must cite a known fact id or it is dropped. The
 * model's text is untrusted: it is kept as text and escaped wherever it is rendered.
 */
export async function llmNarrative(
  settings: LlmSettings,
  facts: readonly Fact[],
  signal?: AbortSignal,
): Promise<Narrative> {
  const context = facts.map((fact) => ({ id: fact.id, fact: fact.text }));
  let response: Response;
  try {
    response = await fetch(`${settings.url}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        temperature: 0,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: JSON.stringify(context) },
        ],
      }),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)])
        : AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    throw new NarrativeModelFailed(`The narrative model at ${redactUrl(settings.url)} did not answer.`, {
      cause: error,
    });
  }
  if (!response.ok) {
    throw new NarrativeModelFailed(
      `The narrative model at ${redactUrl(settings.url)} answered ${response.status}.`,
    );
  }
  const parsed = ChatCompletion.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    throw new NarrativeModelFailed(
      `The narrative model at ${redactUrl(settings.url)} answered no chat completion.`,
    );
  }
  const { sentences, dropped } = keepCitedSentences(parsed.data.choices[0]?.message.content ?? '', facts);
  return { author: NarrativeAuthor.llm, model: settings.model, sentences, dropped };
}
