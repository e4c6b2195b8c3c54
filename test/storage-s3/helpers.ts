import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { s3Storage, type S3StorageOptions } from '@skillmount/storage-s3';
import { after, before } from 'node:test';
import { s3ForTest, type S3TestServer } from '../support/s3-server.js';

/**
 * One S3 server, with its default bucket and a client, for every test of a file: handed to `use`
 * before the first test, stopped after the last.
 */
export function s3ForFile(use: (s3: { server: S3TestServer; bucket: string; client: S3Client }) => void): void {
  const cleanups: (() => unknown)[] = [];
  before(async () => use(await s3ForTest({ after: (cleanup) => void cleanups.push(cleanup) })));
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
}

let counter = 0;
/** A prefix no other test (or earlier run against a shared S3_ENDPOINT bucket) uses. */
export const freshPrefix = (label: string) => `${label}-${process.pid}-${Date.now().toString(36)}-${counter++}/`;

/** Upload files (relative path → bytes) under `prefix`, a few requests at a time. */
export async function upload(client: S3Client, bucket: string, prefix: string, files: Record<string, Uint8Array | string>, concurrency = 16): Promise<void> {
  const entries = Object.entries(files);
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [path, body] = entries[next++]!;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + path, Body: typeof body === 'string' ? new TextEncoder().encode(body) : body }));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Store many files under `prefix`. The embedded server takes large trees straight into its store
 * (thousands of signed PUTs would dominate the test's time); small trees and outside servers go
 * through PutObject.
 */
export async function seed(server: S3TestServer, client: S3Client, bucket: string, prefix: string, files: Record<string, Uint8Array | string>): Promise<void> {
  const entries = Object.entries(files);
  if (!server.putRaw || entries.length < 200) return upload(client, bucket, prefix, files);
  const encoder = new TextEncoder();
  const objects = Object.fromEntries(entries.map(([path, body]) => [prefix + path, typeof body === 'string' ? encoder.encode(body) : body]));
  await server.putRaw(bucket, objects);
}

/** Store objects under keys exactly as given, whatever they contain (`a//b`, `a/../b`). */
export async function putLiteral(server: S3TestServer, client: S3Client, bucket: string, key: string, body: string): Promise<void> {
  const bytes = new TextEncoder().encode(body);
  if (server.putRaw) await server.putRaw(bucket, { [key]: bytes });
  else await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
}

export interface RequestCounts {
  list: number;
  get: number;
  /** GETs the server answered `304 Not Modified` (counted in `get` too): no body came back. */
  notModified: number;
  other: number;
  reset(): void;
}

/** Count the HTTP requests a client sends, by operation; every attempt counts, retries included. */
export function countRequests(client: S3Client): RequestCounts {
  const counts: RequestCounts = {
    list: 0,
    get: 0,
    notModified: 0,
    other: 0,
    reset() {
      counts.list = counts.get = counts.notModified = counts.other = 0;
    },
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName;
      if (command === 'ListObjectsV2Command') counts.list++;
      else if (command === 'GetObjectCommand') counts.get++;
      else counts.other++;
      // Inside the deserializer the answer is still the raw HTTP response; outside it, a 304 is an error.
      const is304 = (status: unknown) => status === 304 && counts.notModified++;
      try {
        const result = await next(args);
        is304((result.response as { statusCode?: number } | undefined)?.statusCode);
        return result;
      } catch (error) {
        is304((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode);
        throw error;
      }
    },
    // The deserialize step runs once per attempt, inside the retry loop.
    { step: 'deserialize', name: 'skillmountTestCountRequests' },
  );
  return counts;
}

/** Options for a storage whose own client talks to the test server with the SDK's default settings. */
export function ownClientOptions(server: S3TestServer, bucket: string, prefix: string): S3StorageOptions {
  return {
    bucket,
    prefix,
    endpoint: server.endpoint,
    region: server.region,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  };
}

export function ownClientStorage(server: S3TestServer, bucket: string, prefix: string, extra: Partial<S3StorageOptions> = {}) {
  return s3Storage({ ...ownClientOptions(server, bucket, prefix), ...extra });
}
