import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMcpApp } from '../../api/mcp/app.ts';
import type { VigilApp } from '../../api/plugins/service.ts';
import { listenOnLoopback } from '../support/listen.ts';

// The MCP project's own conformance suite (@modelcontextprotocol/conformance) against Vigil's
// MCP host. Its other server scenarios call the reference server's test tools (test_simple_text,
// test_image_content ...), prompts and resources, which a server with other tools cannot pass;
// docs/mcp.md lists them. These are the ones about the protocol itself.
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

describe('the MCP conformance suite', () => {
  let mcp: VigilApp;
  let url = '';
  let out = '';

  beforeAll(async () => {
    // These scenarios never reach a tool, so no backend is needed behind the host.
    mcp = await buildMcpApp({
      publicUrl: 'https://mcp.vigil.example',
      logger: false,
      backendUrl: 'http://127.0.0.1:9',
      toolTimeoutMs: 5_000,
    });
    url = await listenOnLoopback(mcp);
    out = await mkdtemp(join(tmpdir(), 'vigil-mcp-conformance-'));
  });
  afterAll(async () => {
    await mcp?.close();
    await rm(out, { recursive: true, force: true });
  });

  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, async () => {
      const dir = join(out, scenario);
      await run(
        process.execPath,
        [cli, 'server', '--url', `${url}/mcp`, '--scenario', scenario, '--output-dir', dir],
        { timeout: 60_000 },
      ).catch((error: unknown) => error); // a failing scenario exits 1; its checks say why
      const [runDir] = await readdir(dir);
      const checks = JSON.parse(await readFile(join(dir, runDir ?? '', 'checks.json'), 'utf8')) as Check[];
      const judged = checks.filter((check) => check.status !== 'INFO');
      expect(judged.length).toBeGreaterThan(0);
      expect(
        judged
          .filter((check) => check.status !== 'SUCCESS')
          .map((check) => `${check.id}: ${check.errorMessage}`),
      ).toEqual([]);
    });
  }
});
