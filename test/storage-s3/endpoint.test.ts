import { test } from 'node:test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import skillsPlugin from '@skillmount/fastify';
import { s3Storage } from '@skillmount/storage-s3';
import { listenFastify } from '../support/apps.js';
import { s3ForTest } from '../support/s3-server.js';
import { EXAMPLES, checkSkillsEndpoint, exampleFiles } from '../support/skills-suite.js';
import { freshPrefix, upload } from './helpers.js';

// The README's example: the storage is one option, configured from the standard AWS environment.
test('the Fastify plugin serves examples/skills from S3, configured by AWS_ENDPOINT_URL_S3 alone', async (t) => {
  const { server, bucket } = await s3ForTest(t);
  const prefix = freshPrefix('endpoint');
  const files: Record<string, Uint8Array> = {};
  for (const file of exampleFiles()) files[file] = await readFile(path.join(EXAMPLES, file));
  await upload(server.client(), bucket, prefix, files);

  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: server.endpoint,
    AWS_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  });
  const storage = s3Storage({ bucket, prefix });
  const app = Fastify();
  await app.register(skillsPlugin, { storage, watch: true, pageSize: 2, server: () => new McpServer({ name: 'my-app', version: '1.0.0' }) });
  app.addHook('onClose', () => storage.close());
  t.after(() => app.close());
  const { url } = await listenFastify(app);

  await checkSkillsEndpoint(url, { pageSize: 2 });
});
