import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { type ChaindataLocation, isObjectRoot } from './location.ts';
import { quote } from './sql.ts';

/**
 * Where DuckDB finds its httpfs extension (object storage): provisioned from the extension's PyPI
 * wheel into the tools folder (infra/provision.sh), never downloaded at run time.
 * DUCKDB_EXTENSION_DIRECTORY overrides it (an image keeps it elsewhere).
 */
const DUCKDB_EXTENSION_DIRECTORY =
  process.env.DUCKDB_EXTENSION_DIRECTORY ??
  fileURLToPath(new URL('../../.tools/duckdb/extensions', import.meta.url));

/** Instance options a DuckDB reading the location needs (the extension folder, for object storage). */
export function storageOptions(location: ChaindataLocation): Record<string, string> {
  return isObjectRoot(location.root) ? { extension_directory: DUCKDB_EXTENSION_DIRECTORY } : {};
}

/**
 * Lets a connection read the location's objects: loads httpfs and keeps the credentials in a
 * secret scoped to the data's prefix (a secret, never a setting: current_setting() cannot read
 * it). Nothing for a local folder.
 */
export async function attachStorage(
  connection: DuckDBConnection,
  location: ChaindataLocation,
): Promise<void> {
  const storage = location.objectStorage;
  if (!isObjectRoot(location.root) || !storage) return;
  await connection.run('LOAD httpfs');
  const endpoint = storage.endpoint ? new URL(storage.endpoint) : undefined;
  const options = [
    'TYPE s3',
    `KEY_ID ${quote(storage.accessKeyId)}`,
    `SECRET ${quote(storage.secretAccessKey)}`,
    `REGION ${quote(storage.region)}`,
    `URL_STYLE ${quote(storage.urlStyle)}`,
    ...(endpoint ? [`ENDPOINT ${quote(endpoint.host)}`, `USE_SSL ${endpoint.protocol === 'https:'}`] : []),
    // With its slash: a scope matches by the path's text, and s3://bucket/prefix alone would
    // also lend the credentials to s3://bucket/prefix-other.
    `SCOPE ${quote(`${location.root.replace(/\/+$/, '')}/`)}`,
  ];
  await connection.run(`CREATE OR REPLACE SECRET vigil_chaindata (${options.join(', ')})`);
}
