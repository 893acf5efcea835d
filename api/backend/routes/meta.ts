import { z } from 'zod';
import { API_VERSION } from '../../plugins/openapi.ts';
import type { VigilApp } from '../../plugins/service.ts';
import type { BackendDeps } from '../deps.ts';
import { VersionInfo } from '../version.ts';

const Home = z
  .object({
    service: z.string(),
    description: z.string(),
    version: z.string(),
    api_version: z.string(),
    links: z.record(z.string(), z.string()),
  })
  .meta({ id: 'HomeResponse' });

const ApiVersions = z
  .object({
    current: z.string(),
    versions: z.array(
      z.object({
        version: z.string(),
        base_path: z.string(),
        status: z.enum(['stable', 'legacy']),
        families: z.array(z.string()),
      }),
    ),
    openapi: z.string(),
  })
  .meta({ id: 'ApiVersionsResponse' });

/** Service metadata, versions, error documentation and the legacy health redirects. */
export function metaRoutes(app: VigilApp, deps: BackendDeps): void {
  app.get('/', { schema: { tags: ['meta'], summary: 'Service metadata', response: { 200: Home } } }, () => ({
    service: deps.version.service,
    description: 'Vigil: multi-chain token risk scans, wallet forensics and alerts on durable workflows.',
    version: deps.version.version,
    api_version: API_VERSION,
    links: {
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
      versions: '/api',
      scans: '/api/v2/scanner/scans',
    },
  }));

  app.get(
    '/version',
    { schema: { tags: ['meta'], summary: 'Detailed version information', response: { 200: VersionInfo } } },
    () => deps.version,
  );

  app.get(
    '/api',
    { schema: { tags: ['meta'], summary: 'Available API versions', response: { 200: ApiVersions } } },
    () => ({
      current: 'v1',
      versions: [
        {
          version: 'v1',
          base_path: '/api/v1',
          status: 'stable' as const,
          families: ['health', 'catalog', 'databus', 'x402-databus', 'x402-tools', 'x402'],
        },
        { version: 'v2', base_path: '/api/v2', status: 'stable' as const, families: ['scanner'] },
      ],
      openapi: '/openapi.json',
    }),
  );

  const redirects: [string, string][] = [
    ['/api/v1/health/live', '/live'],
    ['/api/v1/health/ready', '/ready'],
    ['/api/v1/health', '/health'],
  ];
  for (const [from, to] of redirects) {
    app.get(from, { schema: { tags: ['health'], summary: `307 redirect to ${to}` } }, (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`${to}${query}`, 307);
    });
  }
}
