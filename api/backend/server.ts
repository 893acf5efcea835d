// Runs the backend service alone: `npm run backend`.
import { parseEnv } from '../../core/config/env.ts';
import { listenUntilSignal } from '../plugins/listen.ts';
import { buildBackendApp } from './app.ts';
import { BackendEnv, publicUrlOf } from './config.ts';
import { closeBackendDeps, createBackendDeps } from './deps.ts';

const env = parseEnv(BackendEnv);
const deps = createBackendDeps(env);
await Promise.all([
  deps.scans.ensureIndexes().catch(() => undefined),
  deps.x402.receipts.ensureIndexes().catch(() => undefined),
]);
const app = await buildBackendApp(deps, { publicUrl: publicUrlOf(env), logger: { level: env.LOG_LEVEL } });

await listenUntilSignal(app, { host: env.HOST, port: env.PORT }, () => closeBackendDeps(deps));
