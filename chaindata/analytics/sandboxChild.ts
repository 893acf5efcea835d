// The analytics engine's own process (see sandbox.ts): opens the engine over the root it is given
// and answers query messages from its parent until the parent goes away.
import { openAnalytics } from '../openAnalytics.ts';
import type { SandboxReply, SandboxRequest } from './sandbox.ts';

const [root, limitsJson] = process.argv.slice(2);
if (!root || !limitsJson || !process.send) {
  console.error('usage: run by chaindata/analytics/sandbox.ts');
  process.exit(2);
}
const reply = (message: SandboxReply) => process.send?.(message);

const engine = await openAnalytics(root, JSON.parse(limitsJson) as Record<string, unknown>);
process.on('message', (message: SandboxRequest) => {
  const work =
    message.kind === 'query'
      ? engine.query(message.sql, message.options)
      : engine.internal(message.sql, message.values, message.maxRows);
  work.then(
    (result) => reply({ id: message.id, ok: true, result }),
    (error: unknown) =>
      reply({
        id: message.id,
        ok: false,
        error: {
          name: error instanceof Error ? error.name : 'Error',
          reason: (error as { reason?: string }).reason ?? 'failed',
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
process.on('disconnect', () => {
  engine.close();
  process.exit(0);
});
reply({ id: 0, ok: true, result: null });
