import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../core/temporal/searchAttributes.ts';
import { type ManagedProcess, resolveTool, spawnService } from './processes.ts';

export interface RunningService {
  /** How clients reach it: host:port for Temporal, a URI for the stores. */
  readonly address: string;
  readonly process: ManagedProcess;
}

/** The history shard's queue readers the embedded server lets read as often as work arrives. */
const SHARD_READ_RATES = [
  'history.transferProcessorMaxPollRPS',
  'history.timerProcessorMaxPollRPS',
  'history.visibilityProcessorMaxPollRPS',
  'history.outboundProcessorMaxPollRPS',
] as const;
const SHARD_READS_PER_SECOND = 2_000;

function requireTool(name: string, hint: string): string {
  const found = resolveTool(name);
  if (!found) throw new Error(`${name} is not installed: run 'bash infra/provision.sh' (${hint})`);
  return found;
}

/**
 * The Temporal dev server with Vigil's search attributes registered. With `dbFile` its state
 * survives restarts; without, it is in memory. `uiPort` undefined = headless.
 */
export async function startTemporal(options: {
  port: number;
  uiPort?: number;
  dbFile?: string;
  logFile?: string;
}): Promise<RunningService> {
  const bin = requireTool('temporal', 'or set TEMPORAL_ADDRESS');
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--log-level',
    'warn',
    // New tasks go to one partition per task queue: the dev server is one process, and a poll
    // or a task landing on another of the default four partitions is forwarded between them
    // (docs/benchmarks.md: ~10 % less server CPU per workflow, measured in memory with one).
    '--dynamic-config-value',
    'matching.numTaskqueueWritePartitions=1',
    // The dev server has one history shard, and each shard reads its task queues at most 20
    // times a second by default (a rate sized for clusters of hundreds of shards). Every workflow
    // task and every dispatched activity passes through the transfer queue, so on one shard
    // back-to-back workflows waited for the next of 20 reads a second: an empty workflow took
    // 50 ms instead of 13, and the whole server topped out near 20 workflows a second
    // (docs/benchmarks.md, "The dev server's read rate").
    ...SHARD_READ_RATES.flatMap((setting) => [
      '--dynamic-config-value',
      `${setting}=${SHARD_READS_PER_SECOND}`,
    ]),
  ];
  // Read from one too only where no backlog can wait in the others: a server in memory. A kept
  // database may hold tasks written to four partitions by an earlier start, and pollers must
  // still reach them (Temporal lowers write partitions first, read partitions once drained).
  if (!options.dbFile) args.push('--dynamic-config-value', 'matching.numTaskqueueReadPartitions=1');
  args.push(...(options.uiPort === undefined ? ['--headless'] : ['--ui-port', String(options.uiPort)]));
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
  const address = `127.0.0.1:${options.port}`;
  const process = await spawnService({
    name: 'temporal',
    command: bin,
    args,
    ...(options.logFile ? { logFile: options.logFile } : {}),
    readyTimeoutMs: 90_000,
    ready: async () => {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        const health = await connection.withDeadline(Date.now() + 1_000, () =>
          connection.healthService.check({}),
        );
        return health.status === proto.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
      } finally {
        await connection.close();
      }
    },
  });
  return { address, process };
}

/**
 * redis-server on loopback; `dir` set = persistent (append-only file), else memory only. An
 * `aclFile` gives it users (its `default` user then decides what a client without credentials
 * may do); `probeUrl` is how readiness is probed then (a URL with one of those users).
 */
export async function startRedis(options: {
  port: number;
  dir?: string;
  logFile?: string;
  aclFile?: string;
  probeUrl?: string;
}): Promise<RunningService> {
  const bin = requireTool('redis-server', 'or set REDIS_URL');
  const args = ['--port', String(options.port), '--bind', '127.0.0.1', '--protected-mode', 'yes'];
  if (options.aclFile) args.push('--aclfile', options.aclFile);
  if (options.dir) {
    mkdirSync(options.dir, { recursive: true });
    args.push('--dir', options.dir, '--appendonly', 'yes', '--save', '');
  } else {
    args.push('--save', '', '--appendonly', 'no');
  }
  const address = `redis://127.0.0.1:${options.port}`;
  const process = await spawnService({
    name: 'redis',
    command: bin,
    args,
    ...(options.logFile ? { logFile: options.logFile } : {}),
    ready: async () => {
      const redis = new Redis(options.probeUrl ?? address, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG';
      } finally {
        redis.disconnect();
      }
    },
  });
  return { address, process };
}

/**
 * A MongoDB-wire server on loopback: mongod when installed, otherwise FerretDB with its SQLite
 * backend (built by infra/provision.sh). Data lives in `dir`. With `auth`, clients must
 * authenticate (SCRAM) as that user of the admin database; the embedded stack runs without.
 */
export async function startMongo(options: {
  port: number;
  dir: string;
  logFile?: string;
  auth?: { username: string; password: string };
}): Promise<RunningService> {
  mkdirSync(options.dir, { recursive: true });
  const mongod = resolveTool('mongod');
  const address = `mongodb://127.0.0.1:${options.port}`;
  const [name, command, args] = mongod
    ? ([
        'mongod',
        mongod,
        [
          '--dbpath',
          options.dir,
          '--port',
          String(options.port),
          '--bind_ip',
          '127.0.0.1',
          '--quiet',
          ...(options.auth ? ['--auth'] : []),
        ],
      ] as const)
    : ([
        'ferretdb',
        requireTool('ferretdb', 'or set MONGODB_URI'),
        [
          '--handler=sqlite',
          `--sqlite-url=file:${options.dir}/`,
          `--listen-addr=127.0.0.1:${options.port}`,
          `--state-dir=${options.dir}`,
          '--telemetry=disable',
          '--debug-addr=-',
          '--log-level=warn',
          ...(options.auth
            ? [
                '--test-enable-new-auth',
                `--setup-username=${options.auth.username}`,
                `--setup-password=${options.auth.password}`,
                '--setup-database=admin',
              ]
            : []),
        ],
      ] as const);
  const process = await spawnService({
    name,
    command,
    args: [...args],
    ...(options.logFile ? { logFile: options.logFile } : {}),
    ready: async () => {
      const client = new MongoClient(address, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
      try {
        await client.db('admin').command({ ping: 1 });
        return true;
      } finally {
        await client.close();
      }
    },
  });
  // mongod's first user comes through its localhost exception (FerretDB made it at setup).
  if (options.auth && mongod) {
    const client = new MongoClient(address, { serverSelectionTimeoutMS: 2_000 });
    try {
      await client.db('admin').command({
        createUser: options.auth.username,
        pwd: options.auth.password,
        roles: ['root'],
      });
    } finally {
      await client.close();
    }
  }
  return { address, process };
}
