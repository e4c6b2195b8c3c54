import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { S3Storage } from '@skillmount/storage-s3';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';
import { runStorageBattery, type BatteryTarget } from '../support/storage-battery.js';
import { freshPrefix, ownClientStorage, seed } from './helpers.js';

let started: Promise<{ server: S3TestServer; client: S3Client }> | undefined;
const storages: S3Storage[] = [];
let open = 2; // the server stops once both batteries are done

// Each open stores its files under a fresh prefix; the storage creates its own client with the SDK's default settings.
const target = (manifest: boolean): BatteryTarget => ({
  async open(files) {
    started ??= (async () => {
      const server = await startS3Server();
      await server.bucket(server.defaultBucket);
      return { server, client: server.client() };
    })();
    const { server, client } = await started;
    const prefix = freshPrefix('battery');
    await seed(server, client, server.defaultBucket, prefix, files);
    // Stale-manifest reports are expected once the battery rewrites a file.
    const storage = ownClientStorage(server, server.defaultBucket, prefix, { onError: () => {} });
    storages.push(storage);
    // With a manifest, listAll vouches for sizes and digests and brings SKILL.md bodies along.
    if (manifest) await storage.writeManifest();
    return storage;
  },
  async rewrite(storage, path, bytes) {
    const s3 = storage as S3Storage;
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: s3.prefix + path, Body: bytes }));
  },
  optional: { listAll: true, inMemory: false, watch: true, close: true, treeToken: 'sometimes' },
  listed: { digests: manifest, contents: manifest },
  async cleanup() {
    if (--open > 0) return;
    await Promise.all(storages.map((s) => s.close()));
    if (started) await (await started).server.stop();
  },
});

runStorageBattery('s3Storage', target(false));
runStorageBattery('s3Storage with a manifest', target(true));
