import path from 'node:path';

/** S3-compatible object storage: where it answers and how requests to it are signed. */
export interface ObjectStorage {
  /** The service's URL (http://127.0.0.1:9000 for MinIO, say); none for AWS S3 itself. */
  endpoint?: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `path` (bucket in the path: MinIO, most S3-compatible stores) or `vhost` (bucket in the host: AWS). */
  urlStyle: 'path' | 'vhost';
}

/**
 * Where the chain data lives: a local folder, or a prefix in a bucket (`s3://bucket/prefix`).
 * `localRoot` is a local folder for what every process builds for itself from installed packages
 * (the labels file); it is `root` itself when the data is local.
 */
export interface ChaindataLocation {
  root: string;
  localRoot: string;
  objectStorage?: ObjectStorage | undefined;
}

/** A local folder (what tests and tools pass), or a full location. */
export type LocationLike = string | ChaindataLocation;

export function locationOf(value: LocationLike): ChaindataLocation {
  return typeof value === 'string' ? { root: value, localRoot: value } : value;
}

const OBJECT_ROOT = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/[A-Za-z0-9._\-/=]*)?$/;

export function isObjectRoot(root: string): boolean {
  return root.startsWith('s3://');
}

/**
 * The bucket and key prefix of an `s3://bucket/prefix` root; throws on anything else. A `.`, `..`
 * or empty segment is refused: DuckDB confines reads by the path's text, while the HTTP layer
 * resolves dot segments, so a root holding them would not be the prefix it names. The message does
 * not repeat the root (a mistyped one may carry credentials).
 */
export function parseObjectRoot(root: string): { bucket: string; prefix: string } {
  const match = OBJECT_ROOT.exec(root);
  const prefix = (match?.[2] ?? '').replace(/^\/|\/$/g, '');
  if (!match?.[1] || (prefix !== '' && prefix.split('/').some((part) => ['', '.', '..'].includes(part))))
    throw new Error('not an s3://bucket/prefix root (a bucket name, then /-separated names without . or ..)');
  return { bucket: match[1], prefix };
}

/**
 * What no message about a location may show: the storage's credentials and the service's address.
 */
export function secretsOf(location: ChaindataLocation): string[] {
  const storage = location.objectStorage;
  if (!storage) return [];
  const endpoint = storage.endpoint ? URL.parse(storage.endpoint) : null;
  return [storage.secretAccessKey, storage.accessKeyId, endpoint?.host, endpoint?.hostname].filter(
    (word): word is string => typeof word === 'string' && word !== '',
  );
}

/** `text` with every one of `secrets` (secretsOf) and every URL replaced. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let hidden = text;
  for (const secret of secrets) hidden = hidden.replaceAll(secret, '<hidden>');
  return hidden.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"]*/gi, '<url>');
}

/** Joins below a root: a path for a folder, `/`-joined for a bucket (path.join would eat `s3://`). */
export function joinPath(root: string, ...parts: string[]): string {
  return isObjectRoot(root) ? [root.replace(/\/+$/, ''), ...parts].join('/') : path.join(root, ...parts);
}

export function baseName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}
