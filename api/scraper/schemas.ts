import { load } from 'cheerio/slim';
import { z } from 'zod';
import { AttemptOutcome, SCRAPE_FORMATS } from '../../core/scrape/outcome.ts';
import { TIER_VALUES } from '../../core/scrape/tiers.ts';
import { MarkdownChunk } from '../../core/text/chunkMarkdown.ts';

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const emptyDocument = load('');
/** A selector the browser would reject fails validation here, instead of burning the whole chain. */
function isCssSelector(selector: string): boolean {
  try {
    emptyDocument(selector);
    return true;
  } catch {
    return false;
  }
}

export const ScrapeRequest = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(4_096)
      .describe(
        'Target URL, http or https. Loopback, private, link-local, CGNAT and metadata addresses are refused.',
      ),
    format: z
      .enum(SCRAPE_FORMATS)
      .default('markdown')
      .describe('markdown (default), html, json, text, or raw (the body as sent: feeds, sitemaps, XML)'),
    wait_for: z
      .string()
      .min(1)
      .max(512)
      .refine(isCssSelector, 'not a valid CSS selector')
      .optional()
      .describe(
        'CSS selector awaited (attached to the DOM) before extraction; the chain starts at the browser tier',
      ),
    timeout_ms: z
      .number()
      .int()
      .min(1_000)
      .max(600_000)
      .default(30_000)
      .describe(
        'Hard deadline for the whole escalation chain, in ms (capped by the server); 504 when it runs out',
      ),
    screenshot: z.boolean().default(false).describe('Attach a base64 PNG of the viewport (browser tiers)'),
    session_id: z
      .string()
      .regex(SESSION_ID, 'letters, digits and . _ : - only, at most 128')
      .optional()
      .describe(
        'A cookie jar, created on first use and reused by later requests (HttpOnly cookies included)',
      ),
    only_main_content: z
      .boolean()
      .default(true)
      .describe(
        'markdown, text and json main_text: the main content only (default), or false for the whole page',
      ),
    include_links: z
      .boolean()
      .default(false)
      .describe('Add `links`: every http(s) link of the content, absolute, once each, in order'),
    chunks: z
      .union([
        z.boolean(),
        z
          .object({
            max_chars: z.number().int().min(100).max(100_000).default(2_000),
            overlap_chars: z.number().int().min(0).max(50_000).default(200),
          })
          .strict()
          .refine((value) => value.overlap_chars <= value.max_chars / 2, {
            message: 'overlap_chars must be at most half of max_chars',
            path: ['overlap_chars'],
          }),
      ])
      .default(false)
      .describe(
        'markdown and text: add `chunks` for retrieval, cut at headings, each with its heading path and character offsets into `content` (true: 2000 characters, 200 of overlap)',
      ),
  })
  .strict()
  .refine((request) => !request.chunks || request.format === 'markdown' || request.format === 'text', {
    message: 'chunks apply to the markdown and text formats',
    path: ['chunks'],
  })
  .meta({ id: 'ScrapeRequest' });
export type ScrapeRequest = z.infer<typeof ScrapeRequest>;

export const Attempt = z
  .object({
    tier: z.enum(TIER_VALUES),
    outcome: z.enum(Object.values(AttemptOutcome) as [AttemptOutcome, ...AttemptOutcome[]]),
    status: z.number().int().nullable().describe("The target's HTTP status, when it answered"),
    reason: z.string(),
    elapsed_ms: z.number(),
    retry_after_s: z.number().optional(),
  })
  .meta({ id: 'ScrapeAttempt' });
export type Attempt = z.infer<typeof Attempt>;

export const ScrapeResponse = z
  .object({
    job_id: z.string().describe('The scrapePage workflow that ran the chain (find it in the Temporal UI)'),
    url: z.string().describe('The URL asked for'),
    final_url: z.string().describe('Where redirects led'),
    status: z
      .number()
      .int()
      .describe("The target's HTTP status (a 404 page is returned as content with status 404)"),
    format: z.enum(SCRAPE_FORMATS),
    content: z
      .unknown()
      .describe(
        'A string for markdown, html and text; an object for json (or the document itself when the target serves JSON)',
      ),
    elapsed_ms: z.number(),
    screenshot: z.string().optional().describe('Base64 PNG of the viewport, when asked'),
    links: z
      .array(z.object({ text: z.string(), href: z.string() }))
      .optional()
      .describe('The links of the content, when include_links is set'),
    chunks: z.array(MarkdownChunk).optional().describe('Chunks of `content`, when chunks is set'),
    tier: z.enum(TIER_VALUES).describe('The tier that got the page'),
    start: z
      .object({ tier: z.enum(TIER_VALUES), reason: z.string() })
      .describe('Where the chain started, and why'),
    attempts: z.array(Attempt),
  })
  .meta({ id: 'ScrapeResponse' });
export type ScrapeResponse = z.infer<typeof ScrapeResponse>;
