// Runs the x402 facilitator alone: `npm run facilitator`.
import { parseEnv } from '../../core/config/env.ts';
import { buildFacilitatorApp } from './app.ts';
import { FacilitatorEnv, facilitatorPublicUrl } from './config.ts';
import { createFacilitatorDeps } from './deps.ts';
import { startTracingFromEnv } from '../../clients/tracing.ts';

const env = parseEnv(FacilitatorEnv);
const tracing = startTracingFromEnv('vigil-facilitator');
const deps = await createFacilitatorDeps(env);
const app = await buildFacilitatorApp(deps.facilitator, {
  publicUrl: facilitatorPublicUrl(env),
  logger: { level: env.LOG_LEVEL },
  callers: env.FACILITATOR_CALLERS,
  redis: deps.redis,
  rateLimits: {
    perMinute: env.FACILITATOR_RATE_LIMIT_PER_MINUTE,
    publicPerMinute: env.FACILITATOR_PUBLIC_RATE_LIMIT_PER_MINUTE,
  },
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    void app
      .close()
      .then(() => deps.close())
      .then(() => tracing?.shutdown())
      .then(() => process.exit(0));
  });
}
await app.listen({ host: env.HOST, port: env.PORT });
