import { type Fact, type Narrative, NarrativeAuthor, type Section, SectionKind } from '../core/schema.ts';

/** The summary written without a model: a fixed sentence per kind of fact, citing it. */
export function templateNarrative(sections: readonly Section[]): Narrative {
  const facts = new Map<string, Fact>(
    sections.flatMap((section) => section.facts.map((fact) => [fact.id, fact])),
  );
  const sentences: Narrative['sentences'] = [];
  const say = (id: string, text: (fact: Fact) => string) => {
    const fact = facts.get(id);
    if (fact) sentences.push({ text: text(fact), cites: [id] });
  };
  say('scan-verdict', (fact) => fact.text);
  const flags = [...facts.keys()].filter((id) => id.startsWith('check-'));
  const scan = sections.find((section) => section.kind === SectionKind.scan);
  const redFlags = new Set(((scan?.data.flags ?? []) as { id: string }[]).map((flag) => `check-${flag.id}`));
  const red = flags.filter((id) => redFlags.has(id));
  if (red.length > 0) {
    sentences.push({
      text: `The scan raised ${red.length} flag${red.length === 1 ? '' : 's'}; the most important is: ${facts.get(red[0] ?? '')?.text ?? ''}`,
      cites: red,
    });
  } else if (flags.length > 0) {
    sentences.push({ text: 'The scan raised no red flags.', cites: flags.slice(0, 3) });
  }
  say('deployer-score', (fact) => fact.text);
  say('holders-now', (fact) => fact.text);
  say('liquidity-price', (fact) => fact.text);
  const signals = [...facts.keys()].filter((id) => id.startsWith('signal-'));
  if (signals.length > 0) {
    sentences.push({
      text: `${signals.length} threat signal${signals.length === 1 ? ' was' : 's were'} seen in its history, first: ${facts.get(signals[0] ?? '')?.text ?? ''}`,
      cites: signals,
    });
  }
  say('news-aggregate', (fact) => fact.text);
  say('wallet-summary', (fact) => fact.text);
  return { author: NarrativeAuthor.templates, model: null, sentences, dropped: 0 };
}
