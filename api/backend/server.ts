// Runs the backend service alone: `npm run backend`.
import { parseEnv } from '../../core/config/env.ts';
import { buildBackendApp } from './app.ts';
import { BackendEnv, publicUrlOf } from './config.ts';
import { closeBackendDeps, createBackendDeps } from './deps.ts';

const env = parseEnv(BackendEnv);
const deps = createBackendDeps(env);
await deps.scans.ensureIndexes().catch(() => undefined);
const app = await buildBackendApp(deps, { publicUrl: publicUrlOf(env), logger: { level: env.LOG_LEVEL } });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    void app
      .close()
      .then(() => closeBackendDeps(deps))
      .then(() => process.exit(0));
  });
}
await app.listen({ host: env.HOST, port: env.PORT });
