/**
 * examples/skills in each storage an SDK v2 app can serve through skillmount: the folder itself,
 * a prefix of a bucket on the s3rver test server, a namespace of a PostgreSQL table. Each is made
 * once, on first use, and shared by the apps of a test file; what it started stops after the file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after } from 'node:test';
import type { SkillFiles } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { postgresStorage } from '@skillmount/storage-postgres';
import { putTree, setup } from '../storage-postgres/helpers.js';
import { freshPrefix, ownClientStorage, upload } from '../storage-s3/helpers.js';
import { uniqueName } from '../support/postgres.js';
import { s3ForTest } from '../support/s3-server.js';
import { EXAMPLES, exampleFiles } from '../support/skills-suite.js';

export type StorageName = 'folder storage' | 'S3' | 'PostgreSQL';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const exampleBytes = async () => Object.fromEntries(await Promise.all(exampleFiles().map(async (f) => [f, await readFile(path.join(EXAMPLES, f))] as const)));

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

export const EXAMPLE_STORAGES: Record<StorageName, () => Promise<SkillFiles>> = {
  'folder storage': async () => fsStorage(EXAMPLES),
  S3: once(async () => {
    const { server, bucket, client } = await s3ForTest({ after: (cleanup) => void cleanups.push(cleanup) });
    const prefix = freshPrefix('sdk-v2');
    await upload(client, bucket, prefix, await exampleBytes());
    const storage = ownClientStorage(server, bucket, prefix);
    cleanups.push(() => storage.close());
    return storage;
  }),
  PostgreSQL: once(async () => {
    const env = await setup('sdk_v2');
    cleanups.push(() => env.teardown());
    const storage = postgresStorage({ pool: env.admin, table: env.table, namespace: uniqueName('sdk_v2') });
    await putTree(storage, await exampleBytes());
    return storage;
  }),
};
