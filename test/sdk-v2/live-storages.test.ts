/**
 * A live reload on each storage reaches a listening SDK v2 client as
 * `notifications/resources/list_changed` on its `subscriptions/listen` stream, with the new digest
 * served: a watched catalog served by an SDK v2 app through `sdkV2Skills` and `notifyListChanges`;
 * files are written as an editor or a publish writes them (into the folder, S3 PutObject, the
 * PostgreSQL storage's `put`). The folder behind both frameworks, S3 and PostgreSQL behind one each.
 */
import { after, before, describe, test } from 'node:test';
import { SkillCatalog, type SkillFiles } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { postgresStorage } from '@skillmount/storage-postgres';
import { putTree, setup } from '../storage-postgres/helpers.js';
import { freshPrefix, ownClientStorage, upload } from '../storage-s3/helpers.js';
import { uniqueName } from '../support/postgres.js';
import { s3ForTest } from '../support/s3-server.js';
import { numberedSkills, tempDir, writeTree } from '../support/trees.js';
import { assertReloadReachesClient } from './live-reload.js';
import { serveSdkV2, type Framework, type SdkV2App } from './support.js';

interface LiveStorage {
  storage: SkillFiles;
  add(files: Record<string, string>): Promise<void>;
}

const folder = async (cleanup: (fn: () => unknown) => void): Promise<LiveStorage> => {
  const dir = tempDir('skillmount-sdk-v2-live-');
  cleanup(() => dir.remove());
  writeTree(dir.dir, numberedSkills(2));
  return { storage: fsStorage(dir.dir, { debounceMs: 50 }), add: async (files) => writeTree(dir.dir, files) };
};

const STORAGES: { name: string; framework: Framework; make(cleanup: (fn: () => unknown) => void): Promise<LiveStorage> }[] = [
  { name: 'the folder storage', framework: 'express', make: folder },
  { name: 'the folder storage', framework: 'fastify', make: folder },
  {
    name: 'S3',
    framework: 'express',
    async make(cleanup) {
      const { server, bucket, client } = await s3ForTest({ after: cleanup });
      const prefix = freshPrefix('sdk-v2-live');
      await upload(client, bucket, prefix, numberedSkills(2));
      // Polled: S3 has no change events. A short interval keeps the test quick.
      const storage = ownClientStorage(server, bucket, prefix, { pollIntervalMs: 200 });
      cleanup(() => storage.close());
      return { storage, add: (files) => upload(client, bucket, prefix, files) };
    },
  },
  {
    name: 'PostgreSQL',
    framework: 'fastify',
    async make(cleanup) {
      const env = await setup('sdk_v2_live');
      cleanup(() => env.teardown());
      // LISTEN/NOTIFY: a write is told at once.
      const storage = postgresStorage({ pool: env.admin, table: env.table, namespace: uniqueName('sdk_v2_live') });
      await putTree(storage, numberedSkills(2));
      return { storage, add: (files) => putTree(storage, files) };
    },
  },
];

for (const { name, framework, make } of STORAGES) {
  describe(`an SDK v2 app on @modelcontextprotocol/${framework} serving ${name}: live reload`, () => {
    const cleanups: (() => unknown)[] = [];
    let live: LiveStorage;
    let catalog: SkillCatalog;
    let unwatch: () => void;
    let app: SdkV2App;
    before(async () => {
      live = await make((fn) => void cleanups.push(fn));
      catalog = await SkillCatalog.load(live.storage, { onWarning: () => undefined });
      unwatch = catalog.watch();
      app = await serveSdkV2(framework, catalog);
    });
    after(async () => {
      unwatch?.();
      await app?.close();
      await catalog?.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    test(`a file written into ${name} reaches a listening SDK v2 client as a list change, with its new digest served`, async () => {
      await assertReloadReachesClient(app.url, live.add);
    });
  });
}
