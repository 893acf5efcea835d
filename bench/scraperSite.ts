// The scraper benchmark's target site, run as its own process; prints its port.
import type { AddressInfo } from 'node:net';
import { serveBenchSite } from './scraperPages.ts';

const server = await serveBenchSite();
process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
