import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, type Span, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
  type SpanProcessor,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryPlugin,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import type { MongoClient } from 'mongodb';
import type { Redis } from 'ioredis';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { parseEnv } from '../core/config/env.ts';

/**
 * Tracing's settings, OpenTelemetry's standard variables: OTEL_TRACES_EXPORTER (none by default,
 * otlp or console), OTEL_SERVICE_NAME, and the OTLP exporter's own OTEL_EXPORTER_OTLP_* (endpoint,
 * headers), which it reads itself.
 */
const TracingEnv = z.object({
  OTEL_TRACES_EXPORTER: z.enum(['none', 'otlp', 'console']).default('none'),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
});

/** Where a process sends its spans: nowhere (the default), an OTLP/HTTP collector, or stdout. */
type TracesExporter = 'none' | 'otlp' | 'console';

export interface TracingOptions {
  /** The process's service name on every span (`service.name`). */
  service: string;
  exporter: TracesExporter;
  /** Tests: spans go to this exporter, each as it ends, instead of the configured one. */
  spanExporter?: SpanExporter;
}

/**
 * One process's tracing: the tracer provider (global, as OpenTelemetry's API expects), the
 * Fastify instrumentation every service registers first, and the Temporal plugin that carries the
 * trace from a client's workflow start into the workflow and its activities.
 */
export interface Tracing {
  readonly service: string;
  readonly tracer: Tracer;
  readonly fastify: FastifyOtelInstrumentation;
  /** For Temporal clients (`plugins`): a workflow start carries the active span in its headers. */
  readonly temporal: OpenTelemetryPlugin;
  /**
   * For workers: activity spans under the workflow's, and the sink the workflow's own spans leave
   * the sandbox through (the workflow bundle carries workflowTracingModules()).
   */
  readonly worker: { activity: ActivityInterceptorsFactory; sinks: NonNullable<WorkerOptions['sinks']> };
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

const PROBE_PATHS = new Set(['/health', '/healthz', '/ready', '/metrics']);

/**
 * The tracing this process started, if any. Tracing is process-wide (OpenTelemetry's API holds one
 * global provider and context manager), so the service factory, Temporal clients and workers ask
 * here instead of each taking it as a parameter.
 */
export function currentTracing(): Tracing | undefined {
  return current;
}

/**
 * Starts tracing for this process unless the exporter is 'none'. The OTLP exporter reads the
 * standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers); spans are batched off the request
 * path. Calling it again answers the tracing already started.
 */
export function startTracing(options: TracingOptions): Tracing | undefined {
  if (current) return current;
  if (options.exporter === 'none' && !options.spanExporter) return undefined;
  const processor = spanProcessorFor(options);
  const resource = new Resource({ 'service.name': options.service });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  const tracer = provider.getTracer('vigil');
  // A span per request and one for its handler; none per hook (a dozen per request, all short),
  // and none for the probes and metrics scrapes that run every few seconds.
  // The request span names the path, never the query string (where a caller's data or a
  // misplaced credential could be).
  const fastify = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    ignorePaths: (route) => PROBE_PATHS.has(route.url),
    requestHook: (span, request) => span.setAttribute('url.path', request.url.split('?')[0] ?? '/'),
  });
  fastify.setTracerProvider(provider);
  const temporal = new OpenTelemetryPlugin({ resource, spanProcessor: processor, tracer });
  current = {
    service: options.service,
    tracer,
    fastify,
    temporal,
    worker: {
      activity: (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
      sinks: { exporter: makeWorkflowExporter(processor, resource) },
    },
    async shutdown() {
      current = undefined;
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
  return current;
}

/** Starts tracing as the environment says, named `service` unless OTEL_SERVICE_NAME names it. */
export function startTracingFromEnv(
  service: string,
  env: NodeJS.ProcessEnv = process.env,
): Tracing | undefined {
  const settings = parseEnv(TracingEnv, env);
  return startTracing({
    service: settings.OTEL_SERVICE_NAME ?? service,
    exporter: settings.OTEL_TRACES_EXPORTER,
  });
}

function spanProcessorFor(options: TracingOptions): SpanProcessor {
  if (options.spanExporter) return new SimpleSpanProcessor(options.spanExporter);
  if (options.exporter === 'console') return new SimpleSpanProcessor(new ConsoleSpanExporter());
  return new BatchSpanProcessor(new OTLPTraceExporter());
}

/** The workflow-side interceptors module, bundled into the workflow code when tracing is on. */
export function workflowTracingModules(): string[] {
  if (!current) return [];
  return [
    createRequire(import.meta.url).resolve(
      '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors',
    ),
  ];
}

/**
 * A span for every MongoDB command, from the driver's command monitoring. (Hand-written: the
 * OpenTelemetry MongoDB instrumentation patches the driver as it is required, which Vigil's ES
 * modules load before any tracing could start; the driver's own events need no patching.) Spans
 * name the command and collection, never the query or its values.
 */
export function traceMongo(client: MongoClient): void {
  const tracing = current;
  if (!tracing) return;
  const open = new Map<number, Span>();
  client.on('commandStarted', (event) => {
    const collection: unknown = event.command[event.commandName];
    const span = tracing.tracer.startSpan(
      `mongodb.${event.commandName}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system': 'mongodb',
          'db.operation.name': event.commandName,
          'db.namespace': event.databaseName,
          ...(typeof collection === 'string' ? { 'db.collection.name': collection } : {}),
        },
      },
      context.active(),
    );
    open.set(event.requestId, span);
  });
  const end = (requestId: number, failure?: Error) => {
    const span = open.get(requestId);
    if (!span) return;
    open.delete(requestId);
    if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure.name });
    span.end();
  };
  client.on('commandSucceeded', (event) => end(event.requestId));
  client.on('commandFailed', (event) => end(event.requestId, event.failure));
}

const traced = Symbol('vigil.traced');

/**
 * A span for every Redis command this client sends. (Hand-written for the same reason as
 * traceMongo: ioredis's instrumentation patches the module as it is required.) Spans name the
 * command, never its keys or values.
 */
export function traceRedis(redis: Redis): void {
  const tracing = current;
  if (!tracing) return;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    // A command can pass through here more than once (an offline queue flush): one span each.
    const marked = command as typeof command & { [traced]?: true };
    if (!marked[traced]) {
      marked[traced] = true;
      const span = tracing.tracer.startSpan(`redis.${command.name}`, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system': 'redis', 'db.operation.name': command.name },
      });
      command.promise.then(
        () => span.end(),
        (error: Error) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: error.name });
          span.end();
        },
      );
    }
    return send(command, stream);
  };
}
