// One replica of a skills server whose skills live in an S3 bucket. Start as many as you like, on
// one machine or many: each loads the bucket itself and follows its changes, and none keeps a
// session, so a load balancer may send any request to any of them.
// Run: S3_BUCKET=skills S3_PREFIX=demo/ pnpm start (AWS settings from the usual environment).
import os from 'node:os';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import skillsPlugin from '@skillmount/fastify';
import { s3Storage } from '@skillmount/storage-s3';
import Fastify from 'fastify';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const bucket = process.env.S3_BUCKET;
if (!bucket) {
  console.error('S3_BUCKET is not set: name the bucket that holds the skills (and S3_PREFIX for a folder in it), e.g. S3_BUCKET=skills S3_PREFIX=demo/');
  process.exit(2);
}
const replica = process.env.REPLICA_NAME ?? `${os.hostname()}:${process.pid}`;

// Region, credentials and endpoint come from the AWS environment (AWS_REGION, AWS_PROFILE,
// AWS_ENDPOINT_URL_S3 for MinIO or s3rver, an instance role, …), as for any AWS SDK client.
const storage = s3Storage({
  bucket,
  prefix: process.env.S3_PREFIX ?? '',
  // How often each replica asks whether the bucket changed: one conditional GET of the manifest
  // `skillmount publish` writes, answered 304 while nothing changed.
  pollIntervalMs: Number(process.env.S3_POLL_INTERVAL_MS ?? 30_000),
});

const app = Fastify({ logger: { level: 'warn' }, requestTimeout: 30_000 });
await app.register(skillsPlugin, {
  storage, // the plugin owns it: app.close() stops the polling and closes the S3 client
  watch: true, // reload when the bucket changes; a failed reload keeps serving the previous skills
  sessions: false, // stateless: no session lives in one replica, so no sticky routing is needed
  // Behind a load balancer: the names clients reach the replicas by (DNS-rebinding protection).
  allowedHosts: process.env.ALLOWED_HOSTS?.split(','),
  server: () => new McpServer({ name: 'skills', version: '1.0.0' }, { instructions: `Served by replica ${replica}.` }),
});

const address = await app.listen({ port, host });
console.log(`replica ${replica}: listening on ${address}/mcp with ${app.skills.entries.length} skills from s3://${bucket}/${storage.prefix}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close());
}
