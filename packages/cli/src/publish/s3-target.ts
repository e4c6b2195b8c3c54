import { createHash } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand, paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { encodeManifest, MANIFEST_PATH, type ManifestFile, type S3Storage } from '@skillmount/storage-s3';
import { isPlainPath } from '@skillmount/core/storage-kit';
import type { PublishTarget, RemoteFile, StoredFile } from './target.js';

/**
 * Publishing into the prefix of an S3 storage, with the storage's own client (so the same
 * environment, endpoint and credentials apply). A file is unchanged when the object's size equals
 * the file's and its ETag equals the file's MD5: S3 sets the ETag of a single-part upload to the
 * MD5 of its bytes, and publish uploads every file in one part. An object whose ETag is not an MD5
 * (a multipart upload, SSE-KMS or SSE-C encryption) is uploaded again.
 *
 * A finished run then writes the prefix's manifest (see @skillmount/storage-s3) from what it
 * already knows: the local files' sizes, digests and SKILL.md bytes, and each object's ETag from
 * the listing or from its upload. Stored objects that are not local files are left out of it.
 */
export function s3Target(storage: S3Storage): PublishTarget & { finish(stored: StoredFile[]): Promise<void> } {
  const { client, bucket, prefix } = storage;
  const url = (key: string) => `s3://${bucket}/${key}`;
  // Path → ETag exactly as S3 reported it (listing, then upload responses): what the manifest records.
  const etags = new Map<string, string>();
  let listedManifest: RemoteFile | undefined;
  return {
    async list() {
      const files = new Map<string, RemoteFile>();
      try {
        for await (const page of paginateListObjectsV2({ client, pageSize: 1000 }, { Bucket: bucket, ...(prefix ? { Prefix: prefix } : {}) })) {
          for (const object of page.Contents ?? []) {
            const key = object.Key;
            if (key === undefined || !key.startsWith(prefix)) continue;
            const path = key.slice(prefix.length);
            // Folder markers and keys that are not relative paths are neither compared nor removed.
            if (!isPlainPath(path)) continue;
            const remote = { size: object.Size ?? 0, etag: (object.ETag ?? '').replaceAll('"', '').toLowerCase() };
            // The manifest is not a published file: never compared, never removed.
            if (path === MANIFEST_PATH) {
              listedManifest = remote;
              continue;
            }
            files.set(path, remote);
            if (object.ETag) etags.set(path, object.ETag);
          }
        }
      } catch (error) {
        throw new Error(`cannot list ${url(prefix)}: ${describe(error)}`, { cause: error });
      }
      return files;
    },

    same(remote, bytes) {
      return remote.size === bytes.byteLength && remote.etag === createHash('md5').update(bytes).digest('hex');
    },

    async put(path, bytes) {
      const key = prefix + path;
      let etag: string | undefined;
      try {
        ({ ETag: etag } = await client.send(
          new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentMD5: createHash('md5').update(bytes).digest('base64') }),
        ));
      } catch (error) {
        throw new Error(`cannot upload "${path}" to ${url(key)}: ${describe(error)}`, { cause: error });
      }
      // Without an ETag in the answer the object's entry is left out of the manifest: read, never wrongly trusted.
      if (etag) etags.set(path, etag);
      else etags.delete(path);
    },

    async remove(path) {
      const key = prefix + path;
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        throw new Error(`cannot delete ${url(key)}: ${describe(error)}`, { cause: error });
      }
    },

    async finish(stored) {
      const files: ManifestFile[] = [];
      for (const file of stored) {
        const etag = etags.get(file.path);
        if (etag === undefined) continue;
        files.push({ path: file.path, etag, size: file.size, sha256: file.digest, ...(file.bytes ? { content: file.bytes } : {}) });
      }
      const body = encodeManifest(files);
      const md5 = createHash('md5').update(body);
      // The stored manifest already holds these very bytes (same size, ETag = their MD5): nothing to write.
      if (listedManifest?.size === body.byteLength && listedManifest.etag === md5.copy().digest('hex')) return;
      const key = prefix + MANIFEST_PATH;
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json', ContentMD5: md5.digest('base64') }));
      } catch (error) {
        throw new Error(`the files are published, but the manifest ${url(key)} could not be written: ${describe(error)}; run skillmount publish again`, {
          cause: error,
        });
      }
    },
  };
}

/** The S3 error code, HTTP status and message, or the network error. */
function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string; errors?: { message?: string }[]; $metadata?: { httpStatusCode?: number } };
  const message = e?.message || e?.errors?.[0]?.message || String(error);
  const code = e?.name && e.name !== 'Error' ? e.name : e?.code;
  const status = e?.$metadata?.httpStatusCode;
  const label = [code, status !== undefined ? `HTTP ${status}` : undefined].filter(Boolean).join(', ');
  return label ? `${message} (${label})` : message;
}
