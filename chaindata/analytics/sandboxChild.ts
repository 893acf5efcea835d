// The analytics engine's own process (see sandbox.ts): opens the engine over the root it is given
// and answers query messages from its parent until the parent goes away.
import { openAnalytics } from '../openAnalytics.ts';
import { type ChaindataLocation, hideSecrets, secretsOf } from '../storage/location.ts';
import { LOCATION_ENV, type SandboxReply, type SandboxRequest } from './sandbox.ts';

const [limitsJson] = process.argv.slice(2);
const locationJson = process.env[LOCATION_ENV];
if (!locationJson || !limitsJson || !process.send) {
  console.error('usage: run by chaindata/analytics/sandbox.ts');
  process.exit(2);
}
// Read once, then out of the environment: nothing later in this process needs the credentials.
delete process.env[LOCATION_ENV];
const reply = (message: SandboxReply) => process.send?.(message);

const location = JSON.parse(locationJson) as ChaindataLocation;
const engine = await openAnalytics(location, JSON.parse(limitsJson) as Record<string, unknown>).catch(
  (error: unknown) => {
    // One line, without the credentials: an uncaught storage error would be printed whole, with
    // what the service echoed (an S3 error names the access key id).
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    console.error(`The analytics process could not start: ${hideSecrets(text, secretsOf(location))}`);
    return process.exit(1);
  },
);
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
