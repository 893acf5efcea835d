import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { API_VERSION } from '../plugins/openapi.ts';

export const VersionInfo = z
  .object({
    service: z.string(),
    version: z.string(),
    api_version: z.string(),
    commit: z.string().nullable(),
    node: z.string(),
    temporal_sdk: z.string(),
    started_at: z.iso.datetime(),
  })
  .meta({ id: 'VersionInfo' });
export type VersionInfo = z.infer<typeof VersionInfo>;

const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as { version?: string };

/** Read once at boot. The commit comes from the environment or, in a checkout, from .git. */
export function readVersionInfo(service: string, commit?: string): VersionInfo {
  return {
    service,
    version: readJson(new URL('../../package.json', import.meta.url)).version ?? '0.0.0',
    api_version: API_VERSION,
    commit: commit ?? gitCommit(),
    node: process.version,
    temporal_sdk:
      readJson(new URL('../../node_modules/@temporalio/client/package.json', import.meta.url)).version ??
      'unknown',
    started_at: new Date().toISOString(),
  };
}

function gitCommit(): string | null {
  try {
    const head = readFileSync(new URL('../../.git/HEAD', import.meta.url), 'utf8').trim();
    if (!head.startsWith('ref: ')) return /^[0-9a-f]{40}$/.test(head) ? head : null;
    const ref = readFileSync(new URL(`../../.git/${head.slice(5)}`, import.meta.url), 'utf8').trim();
    return /^[0-9a-f]{40}$/.test(ref) ? ref : null;
  } catch {
    return null;
  }
}
