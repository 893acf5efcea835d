import { z } from 'zod';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as [T[keyof T], ...T[keyof T][]];

/** What a report is about. Wallet reports carry the wallet sections instead of the token ones. */
export const SubjectKind = { token: 'token', wallet: 'wallet' } as const;
export type SubjectKind = (typeof SubjectKind)[keyof typeof SubjectKind];

export const ReportSubject = z
  .object({
    kind: z.enum(values(SubjectKind)).default(SubjectKind.token),
    chain: z.string().min(1).max(32),
    address: z.string().min(1).max(128),
  })
  .strict();
export type ReportSubject = z.infer<typeof ReportSubject>;

/** The sections a report is made of, in the order they are printed. */
export const SectionKind = {
  scan: 'scan',
  deployer: 'deployer',
  holders: 'holders',
  liquidity: 'liquidity',
  wallet: 'wallet',
  similar: 'similar',
  news: 'news',
  charts: 'charts',
} as const;
export type SectionKind = (typeof SectionKind)[keyof typeof SectionKind];

export const SECTION_TITLES: Record<SectionKind, string> = {
  scan: 'Token risk scan',
  deployer: 'Deployer reputation',
  holders: 'Holders and concentration',
  liquidity: 'Liquidity and price history',
  wallet: 'Wallet activity',
  similar: 'Similar tokens',
  news: 'News and sentiment',
  charts: 'Charts',
};

/** Sections each subject gets; only the token scan is mandatory (a wallet report has none). */
export const SECTIONS_OF: Record<SubjectKind, readonly SectionKind[]> = {
  token: ['scan', 'deployer', 'holders', 'liquidity', 'similar', 'news', 'charts'],
  wallet: ['wallet', 'news', 'charts'],
};
export const MANDATORY_SECTIONS: ReadonlySet<SectionKind> = new Set<SectionKind>([SectionKind.scan]);

/** Where a fact was read: every claim in a report points at one or more of these. */
export const EvidenceKind = {
  block: 'block',
  tx: 'tx',
  check: 'check',
  url: 'url',
  address: 'address',
} as const;
export type EvidenceKind = (typeof EvidenceKind)[keyof typeof EvidenceKind];

export const EvidenceLink = z.object({
  kind: z.enum(values(EvidenceKind)),
  /** The block number, transaction hash, check id, address or URL itself. */
  ref: z.string(),
  /** Where a reader can see it (an explorer page, the source article); absent on a local chain. */
  url: z.string().optional(),
});
export type EvidenceLink = z.infer<typeof EvidenceLink>;

/** One claim with its id (what narrative sentences cite) and its evidence. */
export const Fact = z.object({
  id: z.string().regex(/^[a-z]+-[a-z0-9_-]+$/),
  text: z.string(),
  evidence: z.array(EvidenceLink),
});
export type Fact = z.infer<typeof Fact>;

export const ChartImage = z.object({ id: z.string(), title: z.string(), svg: z.string() });
export type ChartImage = z.infer<typeof ChartImage>;

export const SectionStatus = { completed: 'completed', failed: 'failed' } as const;
export type SectionStatus = (typeof SectionStatus)[keyof typeof SectionStatus];

export const Section = z.object({
  kind: z.enum(values(SectionKind)),
  title: z.string(),
  status: z.enum(values(SectionStatus)),
  facts: z.array(Fact),
  /** The section's structured data (its typed shape is in reports/core/sectionData.ts). */
  data: z.record(z.string(), z.unknown()),
  charts: z.array(ChartImage),
  error: z.object({ reason: z.string(), message: z.string() }).optional(),
});
export type Section = z.infer<typeof Section>;

export const NarrativeAuthor = { templates: 'templates', llm: 'llm' } as const;
export type NarrativeAuthor = (typeof NarrativeAuthor)[keyof typeof NarrativeAuthor];

export const NarrativeSentence = z.object({ text: z.string(), cites: z.array(z.string()).min(1) });
export type NarrativeSentence = z.infer<typeof NarrativeSentence>;

export const Narrative = z.object({
  author: z.enum(values(NarrativeAuthor)),
  /** The model that wrote it, when an LLM did. */
  model: z.string().nullable(),
  sentences: z.array(NarrativeSentence),
  /** Sentences the model wrote that cited no known fact, dropped. */
  dropped: z.number().int(),
});
export type Narrative = z.infer<typeof Narrative>;

/** The structured report: what JSON returns and every other format is rendered from. */
export const Report = z.object({
  id: z.string(),
  subject: ReportSubject,
  generated_at: z.iso.datetime(),
  narrative: Narrative,
  sections: z.array(Section),
});
export type Report = z.infer<typeof Report>;

export const ReportFormat = { json: 'json', markdown: 'md', html: 'html', pdf: 'pdf' } as const;
export type ReportFormat = (typeof ReportFormat)[keyof typeof ReportFormat];
export const REPORT_FORMATS = Object.values(ReportFormat);

export const FORMAT_CONTENT_TYPES: Record<ReportFormat, string> = {
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
};
