import { DefaultLogger, type LogEntry, type LogLevel as TemporalLevel } from '@temporalio/worker';
import { type DestinationStream, type Logger, pino, stdSerializers } from 'pino';
import type { z } from 'zod';
import type { LogLevel as LogLevelEnv } from '../core/config/env.ts';

type LogLevel = z.infer<typeof LogLevelEnv>;
import { scrubError } from '../core/errors/scrubError.ts';

const TEMPORAL_LEVEL: Record<LogLevel, TemporalLevel> = {
  fatal: 'ERROR',
  error: 'ERROR',
  warn: 'WARN',
  info: 'WARN',
  debug: 'DEBUG',
  trace: 'TRACE',
  silent: 'ERROR',
};
const PINO_LEVEL: Record<TemporalLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * A worker process's logs: one JSON line per entry (pino, as the services log), the Temporal SDK's
 * own entries (activity failures, worker state) included, with errors' URLs redacted (RPC keys
 * live in them). The SDK logs at WARN and above unless LOG_LEVEL asks for debug or trace: at
 * info it reports every task, which only buries what matters.
 */
export function workerLogger(
  level: LogLevel,
  destination?: DestinationStream,
): { log: Logger; temporal: DefaultLogger } {
  const log = pino(
    {
      level,
      base: { service: 'workers', pid: process.pid },
      serializers: { err: (error: Error) => stdSerializers.err(scrubError(error)) },
    },
    destination,
  );
  const temporal = new DefaultLogger(TEMPORAL_LEVEL[level], (entry: LogEntry) => {
    const { error, ...meta } = (entry.meta ?? {}) as { error?: unknown } & Record<string, unknown>;
    log[PINO_LEVEL[entry.level]](
      { ...meta, ...(error instanceof Error ? { err: error } : error === undefined ? {} : { error }) },
      entry.message,
    );
  });
  return { log, temporal };
}
