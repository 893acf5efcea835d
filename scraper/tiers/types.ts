import type { StoredCookie } from '../sessions/cookies.ts';
import type { AttemptOutcome } from '../../core/scrape/outcome.ts';

/** What a tier fetched, before block detection and conversion. */
export interface Fetched {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  body: string;
  finalUrl: string;
  cookies: StoredCookie[];
  screenshot?: Buffer;
  /** wait_for matched. */
  selectorFound?: boolean;
  /** The tier already knows the outcome (selector missing, refused navigation). */
  verdict?: { outcome: AttemptOutcome; reason: string };
}
