import { postgresStorage, type PostgresStorage } from '@skillmount/storage-postgres';
import { runStorageBattery } from '../support/storage-battery.js';
import { testPool, uniqueName } from '../support/postgres.js';
import { putTree, setup } from './helpers.js';

const env = await setup('battery');
const pool = testPool(env.db.connectionString, 10);
const opened: PostgresStorage[] = [];

runStorageBattery('postgresStorage', {
  // Every tree goes into a fresh namespace of the same table.
  async open(files) {
    const storage = postgresStorage({ pool, table: env.table, namespace: uniqueName('ns') });
    opened.push(storage);
    await putTree(storage, files);
    return storage;
  },
  rewrite: async (storage, path, bytes) => void (await (storage as PostgresStorage).put(path, bytes)),
  optional: { listAll: true, inMemory: false, watch: true, close: true, treeToken: true },
  listed: { digests: true, contents: true },
  async cleanup() {
    await Promise.all(opened.map((s) => s.close()));
    await pool.end();
    await env.teardown();
  },
});
