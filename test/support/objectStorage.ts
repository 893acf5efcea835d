import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../../chaindata/storage/dataFiles.ts';
import type { ObjectStorage } from '../../chaindata/storage/location.ts';
import { freePort, REPO_ROOT, spawnService } from '../../infra/stack/processes.ts';

/**
 * An S3-compatible server on loopback (moto's, provisioned from PyPI) with one bucket, for tests of
 * the chain data on object storage. The clients talking to it are the real ones: DuckDB's httpfs
 * and the AWS SDK.
 */
export async function startObjectStorage(bucket: string) {
  const port = await freePort();
  const server = await spawnService({
    name: 'moto_server',
    command: path.join(REPO_ROOT, '.tools/moto/bin/moto_server'),
    args: ['-H', '127.0.0.1', '-p', String(port)],
    ready: () =>
      fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.ok,
        () => false,
      ),
  });
  const storage: ObjectStorage = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'vigil-test-key',
    secretAccessKey: 'vigil-test-secret-3f9a7c',
    urlStyle: 'path',
  };
  const client = s3Client(storage);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    storage,
    client,
    /** The settings as a process reads them from its environment. */
    env: {
      CHAINDATA_S3_ENDPOINT: storage.endpoint ?? '',
      CHAINDATA_S3_REGION: storage.region,
      CHAINDATA_S3_ACCESS_KEY_ID: storage.accessKeyId,
      CHAINDATA_S3_SECRET_ACCESS_KEY: storage.secretAccessKey,
    },
    async close() {
      client.destroy();
      await server.stop(2_000);
    },
  };
}
