import { DefaultLogger, Runtime } from '@temporalio/worker';

// Workers inside tests log only errors; expected failures (unreachable chains, cancellations)
// would otherwise flood the output. Runtime.install may run once per process.
try {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
} catch {
  // Already installed in this process.
}
