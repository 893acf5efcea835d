import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DeleteObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  baseName,
  type ChaindataLocation,
  isObjectRoot,
  type ObjectStorage,
  parseObjectRoot,
} from './location.ts';

/**
 * The few file operations the index needs, on a local folder or on object storage: whether a
 * file is there, the Parquet files under a folder, removing one, and publishing a file written
 * locally to its place (a rename, or one upload: either way readers never see half a file).
 */
export interface DataFiles {
  exists(file: string): Promise<boolean>;
  /** Every Parquet file below `dir`, at any depth. */
  list(dir: string): Promise<string[]>;
  remove(file: string): Promise<void>;
  /** A local path to write `file`'s contents to before publish(). */
  staging(file: string): Promise<string>;
  /** Moves a staged file to its place; the staged file is gone afterwards either way. */
  publish(staged: string, file: string): Promise<void>;
}

export const localDataFiles: DataFiles = {
  exists: (file) => Promise.resolve(existsSync(file)),
  async list(dir) {
    if (!existsSync(dir)) return [];
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.parquet'))
      .map((entry) => path.join(entry.parentPath, entry.name));
  },
  remove: (file) => rm(file, { force: true }),
  async staging(file) {
    await mkdir(path.dirname(file), { recursive: true });
    return `${file}.${process.pid}.part`;
  },
  async publish(staged, file) {
    try {
      await rename(staged, file);
    } catch (error) {
      await rm(staged, { force: true });
      throw error;
    }
  },
};

/** The operations for a location: object storage for its `s3://` paths, the local disk for the rest. */
export function dataFiles(location: ChaindataLocation): DataFiles {
  if (!isObjectRoot(location.root)) return localDataFiles;
  if (!location.objectStorage) throw new Error(`${location.root} needs object storage settings`);
  const objects = new ObjectFiles(location.root, location.objectStorage);
  const on = (file: string) => (isObjectRoot(file) ? objects : localDataFiles);
  return {
    exists: (file) => on(file).exists(file),
    list: (dir) => on(dir).list(dir),
    remove: (file) => on(file).remove(file),
    staging: (file) => on(file).staging(file),
    publish: (staged, file) => on(file).publish(staged, file),
  };
}

/** An AWS SDK client for the storage's service. */
export function s3Client(storage: ObjectStorage): S3Client {
  return new S3Client({
    region: storage.region,
    ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
    forcePathStyle: storage.urlStyle === 'path',
    credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
  });
}

/** Files as objects of one bucket, through the AWS SDK (any S3-compatible service). */
class ObjectFiles implements DataFiles {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #staging = path.join(tmpdir(), `vigil-upload-${process.pid}`);

  constructor(root: string, storage: ObjectStorage) {
    this.#bucket = parseObjectRoot(root).bucket;
    this.#client = s3Client(storage);
  }

  #key(file: string): string {
    const base = `s3://${this.#bucket}/`;
    if (!file.startsWith(base)) throw new Error(`${file} is not in bucket ${this.#bucket}`);
    return file.slice(base.length);
  }

  async exists(file: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(file) }));
      return true;
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return false;
      throw error;
    }
  }

  async list(dir: string): Promise<string[]> {
    const prefix = `${this.#key(dir).replace(/\/+$/, '')}/`;
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const entry of page.Contents ?? [])
        if (entry.Key?.endsWith('.parquet')) found.push(`s3://${this.#bucket}/${entry.Key}`);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async remove(file: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(file) }));
  }

  async staging(file: string): Promise<string> {
    await mkdir(this.#staging, { recursive: true });
    return path.join(this.#staging, `${randomUUID()}-${baseName(file)}`);
  }

  async publish(staged: string, file: string): Promise<void> {
    try {
      // One PUT: the object appears whole or not at all. A range's file is a few MB at most.
      await this.#client.send(
        new PutObjectCommand({ Bucket: this.#bucket, Key: this.#key(file), Body: await readFile(staged) }),
      );
    } finally {
      await rm(staged, { force: true });
    }
  }
}
