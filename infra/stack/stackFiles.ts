import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Scenario } from '../devnet/scenario.ts';
import { writeSecretFileSync } from './secretFiles.ts';
import type { ChildStatus } from './supervisor.ts';

export interface StackFileContents {
  urls: Record<string, string | null>;
  scenario: Scenario;
  solanaMints: Record<string, string>;
  apiKey: string;
  processes: ChildStatus[];
}

/** `.data/stack.json`: what a user or a test needs to talk to the stack. It carries the API key: owner-only. */
export function writeStackFile(file: string, contents: StackFileContents, state = 'ready'): void {
  const { urls, scenario, solanaMints, apiKey, processes } = contents;
  const tokens = Object.fromEntries(
    Object.entries(scenario.tokens).map(([key, token]) => [
      key,
      { address: token.address, symbol: token.symbol, kind: token.kind },
    ]),
  );
  writeSecretFileSync(
    file,
    `${JSON.stringify({ state, pid: process.pid, urls, api_key: apiKey, chain: 'devnet', chain_id: scenario.chainId, dex: scenario.dex, tokens, solana_mints: solanaMints, processes }, null, 2)}\n`,
  );
}

/** This data folder's own API key: made once, kept (owner-only) with the rest of the stack's state. */
export function localApiKey(file: string): string {
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32,}$/.test(kept)) {
      // Rewritten, so a key an earlier version left readable by others is made private.
      writeSecretFileSync(file, `${kept}\n`);
      return kept;
    }
  }
  const key = randomBytes(24).toString('hex');
  writeSecretFileSync(file, `${key}\n`);
  return key;
}
