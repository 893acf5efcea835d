import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BackendEnv } from '../../api/backend/config.ts';
import { FacilitatorEnv } from '../../api/facilitator/config.ts';
import { McpEnv } from '../../api/mcp/config.ts';
import { RetrievalApiEnv } from '../../api/retrieval/config.ts';
import { ScraperApiEnv } from '../../api/scraper/config.ts';
import { WorkerEnv } from '../../workers/config.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README’s configuration table', () => {
  it('names every variable the backend, the facilitator, the MCP server, the retrieval service, the scraper and the workers read', () => {
    const read = [BackendEnv, FacilitatorEnv, McpEnv, RetrievalApiEnv, ScraperApiEnv, WorkerEnv].flatMap(
      (schema) => Object.keys(schema.shape),
    );
    expect(read.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
