/**
 * A real S3-protocol server for the tests: `S3_ENDPOINT` (with `S3_ACCESS_KEY_ID`,
 * `S3_SECRET_ACCESS_KEY`, `S3_REGION`, `S3_BUCKET`) when set, for MinIO or AWS; otherwise s3rver
 * (the S3 REST protocol over HTTP: routing, XML, errors, continuation tokens) on 127.0.0.1 in a
 * child process. The child runs with `--openssl-legacy-provider` because s3rver encrypts its
 * continuation tokens with DES, which OpenSSL 3 only offers there, and a running process cannot
 * turn it on (without it, listings past one page fail).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { setupCost } from './cost.js';

export interface S3TestServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** A bucket the tests may use: `S3_BUCKET`, or one created on the embedded server. */
  defaultBucket: string;
  /** True when the tests run against `S3_ENDPOINT` rather than the embedded server. */
  external: boolean;
  /** Create a bucket (an existing one of ours is fine). */
  bucket(name: string): Promise<void>;
  /**
   * Embedded server only: store objects (key → bytes) straight into its store, as if another
   * S3 client had written them. For bulk test data, and for keys that HTTP routing cannot carry
   * to s3rver (`a//b`).
   */
  putRaw?(bucket: string, objects: Record<string, Uint8Array>): Promise<void>;
  /** A client for setting up test data. */
  client(config?: Partial<S3ClientConfig>): S3Client;
  stop(): Promise<void>;
}

export async function startS3Server(): Promise<S3TestServer> {
  const env = process.env;
  if (env.S3_ENDPOINT) {
    return withClients({
      endpoint: env.S3_ENDPOINT,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
      region: env.S3_REGION ?? 'us-east-1',
      defaultBucket: env.S3_BUCKET ?? 'skillmount-test',
      external: true,
      stop: async () => {},
    });
  }
  return setupCost('s3', startEmbedded);
}

type Base = Omit<S3TestServer, 'bucket' | 'client'>;

function withClients(base: Base): S3TestServer {
  const made = new Set<S3Client>();
  const client = (config: Partial<S3ClientConfig> = {}) => {
    const c = new S3Client({
      endpoint: base.endpoint,
      region: base.region,
      forcePathStyle: true,
      credentials: { accessKeyId: base.accessKeyId, secretAccessKey: base.secretAccessKey },
      // s3rver does not understand the aws-chunked checksum trailers the SDK sends by default for streamed bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...config,
    });
    made.add(c);
    return c;
  };
  let admin: S3Client | undefined;
  return {
    ...base,
    client,
    async bucket(name) {
      admin ??= client();
      try {
        await admin.send(new CreateBucketCommand({ Bucket: name }));
      } catch (error) {
        if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw error;
      }
    },
    async stop() {
      for (const c of made) c.destroy();
      await base.stop();
    },
  };
}

// Runs in the child (CommonJS). s3rver keeps objects as files, three per object, and maps keys
// to paths with path.join, which folds "a//b", "a/./b" and "a/../b" into other keys. The store
// below keeps objects in memory instead, under their keys exactly as S3 does, which also makes
// the thousands of requests the tests send cheap. Buckets stay s3rver's own.
const CHILD = `
const crypto = require('node:crypto');
const path = require('node:path');
const { Readable } = require('node:stream');
const [, , root, directory] = process.argv;
const S3rver = require(path.join(root, 'lib/s3rver.js'));
const FilesystemStore = require(path.join(root, 'lib/stores/filesystem.js'));
const S3Object = require(path.join(root, 'lib/models/object.js'));

const readAll = async (content) => {
  if (Buffer.isBuffer(content)) return content;
  const chunks = [];
  for await (const chunk of content) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};
const storedMetadata = (metadata) =>
  Object.fromEntries(Object.entries(metadata || {}).filter(([k]) => S3Object.ALLOWED_METADATA.includes(k) || k.startsWith('x-amz-meta-')));

class MemoryObjectStore extends FilesystemStore {
  constructor(dir) {
    super(dir);
    this.buckets = new Map();
  }
  objects(bucket) {
    if (!this.buckets.has(bucket)) this.buckets.set(bucket, new Map());
    return this.buckets.get(bucket);
  }
  metadataOf(entry) {
    return { ...entry.metadata, etag: JSON.stringify(entry.md5), 'last-modified': entry.modified.toUTCString(), 'content-length': entry.content.length };
  }
  async getMetadata(bucket, key) {
    const entry = this.objects(bucket).get(key);
    if (!entry) throw Object.assign(new Error('no such key ' + key), { code: 'ENOENT' });
    return this.metadataOf(entry);
  }
  async putMetadata(bucket, key, metadata) {
    const entry = this.objects(bucket).get(key);
    if (entry) entry.metadata = storedMetadata(metadata);
  }
  async existsObject(bucket, key) {
    return this.objects(bucket).has(key);
  }
  async putObject(object) {
    const content = await readAll(object.content);
    const md5 = crypto.createHash('md5').update(content).digest('hex');
    this.objects(object.bucket).set(object.key, { content, md5, metadata: storedMetadata(object.metadata), modified: new Date() });
    return { md5, size: content.length };
  }
  async getObject(bucket, key, options) {
    const entry = this.objects(bucket).get(key);
    if (!entry) return null;
    const metadata = this.metadataOf(entry);
    const ranged = options && (options.start !== undefined || options.end);
    const lastByte = Math.max(0, entry.content.length - 1);
    const range = { start: (options && options.start) || 0, end: Math.min((options && options.end) || Infinity, lastByte) };
    const satisfiable = !(range.start < 0 || range.end < range.start);
    const content = satisfiable ? Readable.from([entry.content.subarray(range.start, range.end + 1)]) : null;
    const object = new S3Object(bucket, key, content, metadata);
    if (ranged) object.range = range;
    return object;
  }
  async copyObject(srcBucket, srcKey, destBucket, destKey, replacementMetadata) {
    const source = this.objects(srcBucket).get(srcKey);
    const metadata = replacementMetadata ? storedMetadata(replacementMetadata) : source.metadata;
    this.objects(destBucket).set(destKey, { ...source, metadata, modified: new Date() });
    return this.getMetadata(destBucket, destKey);
  }
  async deleteObject(bucket, key) {
    this.objects(bucket).delete(key);
  }
  async deleteBucket(bucket) {
    this.buckets.delete(bucket);
    return super.deleteBucket(bucket);
  }
  async listObjects(bucket, { delimiter = '', startAfter = '', prefix = '', maxKeys = Infinity }) {
    const keys = [...this.objects(bucket).keys()].sort();
    const commonPrefixes = new Set();
    const objects = [];
    let isTruncated = false;
    for (const key of keys) {
      if (key <= startAfter || !key.startsWith(prefix)) continue;
      const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
      if (cut !== -1) {
        commonPrefixes.add(key.slice(0, cut + delimiter.length));
        continue;
      }
      if (objects.length === maxKeys) {
        isTruncated = true;
        break;
      }
      objects.push(new S3Object(bucket, key, null, this.metadataOf(this.objects(bucket).get(key))));
    }
    return { objects, commonPrefixes: [...commonPrefixes].sort(), isTruncated };
  }
}

const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
server.store = server.context.store = new MemoryObjectStore(directory);
const stop = () => server.close().finally(() => process.exit(0));
process.on('disconnect', stop);
process.on('SIGTERM', stop);
process.on('message', async (message) => {
  try {
    for (const [key, body] of Object.entries(message.objects)) {
      await server.store.putObject(new S3Object(message.bucket, key, Buffer.from(body, 'base64'), {}));
    }
    process.send({ id: message.id, ok: true });
  } catch (error) {
    process.send({ id: message.id, error: String((error && error.stack) || error) });
  }
});
server.run().then(
  (address) => process.send({ ready: address.port }),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

async function startEmbedded(): Promise<S3TestServer> {
  const require = createRequire(import.meta.url);
  const root = path.dirname(path.dirname(require.resolve('s3rver')));
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-data-'));
  const script = path.join(directory, '..', `${path.basename(directory)}-server.cjs`);
  await writeFile(script, CHILD);
  const child: ChildProcess = fork(script, [root, directory], {
    execArgv: ['--openssl-legacy-provider'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const cleanup = async () => {
    await rm(directory, { recursive: true, force: true });
    await rm(script, { force: true });
  };
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code} before listening`)));
      child.on('message', (message: { ready?: number }) => {
        if (message.ready !== undefined) resolve(message.ready);
      });
    });
  } catch (error) {
    child.kill('SIGTERM');
    await cleanup();
    throw error;
  }

  let nextId = 0;
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  child.on('message', (message: { id?: number; ok?: boolean; error?: string }) => {
    if (message.id === undefined) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve();
    else waiter?.reject(new Error(message.error));
  });

  return withClients({
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
    defaultBucket: 'skillmount-test',
    external: false,
    putRaw(bucket, objects) {
      const id = nextId++;
      const encoded = Object.fromEntries(Object.entries(objects).map(([key, bytes]) => [key, Buffer.from(bytes).toString('base64')]));
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, bucket, objects: encoded });
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      // A client's keep-alive connection can hold a graceful close open: do not wait for ever.
      const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(killer);
      await cleanup();
    },
  });
}

/** An S3 server with its default bucket and a client, for one test: both stopped after it (given node:test's `after` in a `before` hook, after the file). */
export async function s3ForTest(t: { after(fn: () => unknown): void }): Promise<{ server: S3TestServer; bucket: string; client: S3Client }> {
  const server = await startS3Server();
  t.after(() => server.stop());
  const bucket = server.defaultBucket;
  await server.bucket(bucket);
  const client = server.client();
  t.after(() => client.destroy());
  return { server, bucket, client };
}

/** The environment that points a child process's AWS SDK (the CLI's) at `server`, as a user would for MinIO. */
export function s3Env(server: S3TestServer): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_S3: server.endpoint,
    AWS_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    // The embedded s3rver does not understand the SDK's default checksum trailers.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}
