import type { LoggerOptions } from 'pino';
import { registerOpenApi } from '../plugins/openapi.ts';
import { createService, type VigilApp } from '../plugins/service.ts';
import type { BackendDeps } from './deps.ts';
import { healthRoutes } from './routes/health.ts';
import { metaRoutes } from './routes/meta.ts';
import { scanRoutes } from './routes/scans.ts';
import { ScanJobs } from './scanJobs.ts';

export interface BackendOptions {
  publicUrl: string;
  logger: LoggerOptions | false;
}

/** The backend service ({base_url}); server.ts only listens. */
export async function buildBackendApp(deps: BackendDeps, options: BackendOptions): Promise<VigilApp> {
  const app = await createService({ publicUrl: options.publicUrl, logger: options.logger });
  await registerOpenApi(app, {
    title: 'Vigil backend API',
    description: 'Token risk scans, wallet forensics and alerts. Errors are RFC 7807 problem documents.',
    publicUrl: options.publicUrl,
  });
  metaRoutes(app, deps);
  healthRoutes(app, deps);
  scanRoutes(app, new ScanJobs(deps));
  await app.ready();
  return app;
}
