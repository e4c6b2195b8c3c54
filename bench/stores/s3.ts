import { PutObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { sha256Digest } from '@skillmount/core';
import { encodeManifest, MANIFEST_PATH, s3Storage, type ManifestFile } from '@skillmount/storage-s3';
import { s3Env, startS3Server, type S3TestServer } from '../../test/support/s3-server.js';
import { fileBytes, type CorpusFile, type CorpusSize } from '../corpus.js';
import type { SeededStore, StoreKind } from './store.js';

const BATCH = 500;

/**
 * Corpora in buckets of the loopback S3-protocol server the tests use. Objects are stored straight
 * into its store in batches (seeding 40 000 objects one PUT at a time would take longer than the
 * benchmark); every read the catalogs make goes over HTTP through the AWS SDK client. Each bucket
 * then gets the manifest `skillmount publish` would leave: every object's ETag (as the server
 * lists it), size, sha256 and SKILL.md bytes, written again after every rewrite (objects first,
 * manifest last, as publish does). With `manifest: false` no bucket gets one: what a prefix
 * written by other tools costs.
 */
export async function s3Stores(options: { manifest?: boolean } = {}): Promise<StoreKind> {
  const withManifest = options.manifest ?? true;
  const kind = withManifest ? 'S3' : 'S3, no manifest';
  const server: S3TestServer = await startS3Server();
  const client: S3Client = server.client();
  let buckets = 0;

  const put = async (bucket: string, size: CorpusSize, files: readonly CorpusFile[], version: number) => {
    for (let i = 0; i < files.length; i += BATCH) {
      const objects: Record<string, Uint8Array> = {};
      for (const file of files.slice(i, i + BATCH)) objects[file.path] = fileBytes(size, file.path, version);
      if (server.putRaw) await server.putRaw(bucket, objects);
      else throw new Error('bench: seeding needs the embedded S3 server (unset S3_ENDPOINT)');
    }
  };

  const writeManifest = async (bucket: string, size: CorpusSize, versions: ReadonlyMap<string, number>) => {
    const etags = new Map<string, string>();
    for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket })) {
      for (const object of page.Contents ?? []) if (object.Key && object.ETag) etags.set(object.Key, object.ETag);
    }
    const manifest: ManifestFile[] = [];
    for (const [path, version] of versions) {
      const bytes = fileBytes(size, path, version);
      manifest.push({
        path,
        etag: etags.get(path)!,
        size: bytes.byteLength,
        sha256: sha256Digest(bytes),
        ...(path.endsWith('SKILL.md') ? { content: bytes } : {}),
      });
    }
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: MANIFEST_PATH, Body: encodeManifest(manifest), ContentType: 'application/json' }));
  };

  return {
    kind,
    async seed(size, files) {
      const bucket = `bench-${process.pid}-${buckets++}`;
      await server.bucket(bucket);
      await put(bucket, size, files, 0);
      const versions = new Map(files.map((file) => [file.path, 0]));
      if (withManifest) await writeManifest(bucket, size, versions);
      const store: SeededStore = {
        kind,
        size,
        files,
        // One configured client for every adapter, as an app would share it; the adapters never destroy it.
        adapter: () => s3Storage({ client, bucket }),
        served: { s3: { endpoint: server.endpoint, region: server.region, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey, bucket } },
        cli: {
          location: `s3://${bucket}`,
          args: [],
          env: s3Env(server),
        },
        async rewrite(changed, version) {
          await put(bucket, size, changed, version);
          for (const file of changed) versions.set(file.path, version);
          if (withManifest) await writeManifest(bucket, size, versions);
        },
        release: async (adapter) => {
          await adapter.close?.();
        },
        remove: async () => {},
      };
      return store;
    },
    async stop() {
      await server.stop();
    },
  };
}
