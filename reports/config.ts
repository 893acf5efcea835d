import { z } from 'zod';
import { IntEnv, OptionalEnv } from '../core/config/env.ts';

/** Settings of the reports library, merged into the worker's schema (the reports pool runs it). */
export const ReportsEnv = z.object({
  /**
   * An OpenAI-compatible chat endpoint (its base URL, e.g. `https://host/v1`) that writes the
   * report's prose from its facts; unset = the deterministic template narrative.
   */
  REPORTS_LLM_URL: OptionalEnv.pipe(z.url({ protocol: /^https?$/ }).optional()),
  REPORTS_LLM_API_KEY: OptionalEnv,
  /** The model name sent to REPORTS_LLM_URL. */
  REPORTS_LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  REPORTS_LLM_TIMEOUT_MS: IntEnv(1_000, 300_000).default(60_000),
  /** The retrieval service the similar-tokens section asks. */
  RETRIEVAL_URL: z.url().default('http://127.0.0.1:3003'),
});
export type ReportsEnv = z.infer<typeof ReportsEnv>;

export interface LlmSettings {
  url: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export function llmSettings(env: ReportsEnv): LlmSettings | undefined {
  if (!env.REPORTS_LLM_URL) return undefined;
  return {
    url: env.REPORTS_LLM_URL.replace(/\/+$/, ''),
    apiKey: env.REPORTS_LLM_API_KEY,
    model: env.REPORTS_LLM_MODEL,
    timeoutMs: env.REPORTS_LLM_TIMEOUT_MS,
  };
}
