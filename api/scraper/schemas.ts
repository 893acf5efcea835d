import { load } from 'cheerio/slim';
import { z } from 'zod';
import { AttemptOutcome, SCRAPE_FORMATS } from '../../core/scrape/outcome.ts';
import { TIER_VALUES } from '../../core/scrape/tiers.ts';

export const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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
    format: z.enum(SCRAPE_FORMATS).default('markdown').describe('markdown (default), html, json or text'),
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
  })
  .strict()
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
    tier: z.enum(TIER_VALUES).describe('The tier that got the page'),
    start: z
      .object({ tier: z.enum(TIER_VALUES), reason: z.string() })
      .describe('Where the chain started, and why'),
    attempts: z.array(Attempt),
  })
  .meta({ id: 'ScrapeResponse' });
export type ScrapeResponse = z.infer<typeof ScrapeResponse>;
