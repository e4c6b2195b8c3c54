import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Storage } from '@skillmount/storage-s3';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';
import { runStorageBattery } from '../support/storage-battery.js';
import { freshPrefix, ownClientStorage, seed } from './helpers.js';

let started: Promise<{ server: S3TestServer; client: S3Client }> | undefined;
const storages: S3Storage[] = [];

// Each open stores its files under a fresh prefix; the storage creates its own client with the SDK's default settings.
runStorageBattery('s3Storage', {
  async open(files) {
    started ??= (async () => {
      const server = await startS3Server();
      await server.bucket(server.defaultBucket);
      return { server, client: server.client() };
    })();
    const { server, client } = await started;
    const prefix = freshPrefix('battery');
    await seed(server, client, server.defaultBucket, prefix, files);
    const storage = ownClientStorage(server, server.defaultBucket, prefix);
    storages.push(storage);
    return storage;
  },
  async cleanup() {
    await Promise.all(storages.map((s) => s.close()));
    if (started) await (await started).server.stop();
  },
});
