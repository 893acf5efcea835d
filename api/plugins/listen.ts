import type { VigilApp } from './service.ts';

/**
 * Listens until SIGINT or SIGTERM, then stops taking requests, lets in-flight ones finish,
 * closes the service's clients (`release`) and exits. What every service's server.ts does.
 */
export async function listenUntilSignal(
  app: VigilApp,
  address: { host: string; port: number },
  release: () => Promise<void>,
): Promise<void> {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      void app
        .close()
        .then(release)
        .then(() => process.exit(0));
    });
  }
  await app.listen(address);
}
