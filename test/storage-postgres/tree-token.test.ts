import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { SkillCatalog, StorageError, type SkillFiles } from '@skillmount/core';
import { postgresStorage, type PostgresStorage } from '@skillmount/storage-postgres';
import { createLoginRole, dropMigrated, testPool, type TestRole, uniqueName } from '../support/postgres.js';
import { countingPool, putTree, setup, type CountingPool } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

let env: Awaited<ReturnType<typeof setup>>;
let counting: CountingPool;
let t: string;
const opened: PostgresStorage[] = [];
const extraTables: string[] = [];

before(async () => {
  env = await setup('token');
  counting = countingPool(env.db.connectionString);
  t = pg.escapeIdentifier(env.table);
});
after(async () => {
  await Promise.all(opened.map((s) => s.close()));
  for (const table of extraTables) await dropMigrated(env.admin, table).catch(() => undefined);
  await counting.pool.end();
  await env.teardown();
});

const open = (namespace = uniqueName('ns'), table = env.table, pool = env.admin) => {
  const storage = postgresStorage({ pool, table, namespace });
  opened.push(storage);
  return storage;
};
const bytes = (s: string) => Buffer.from(s, 'utf8');
const quiet = { onWarning: () => {} };

describe('treeToken() of a migrated table', () => {
  test('a namespace never written has a stable token; the storage’s own put and remove change it, a put of the same bytes does not', async () => {
    const s = open();
    const empty = await s.treeToken();
    assert.match(empty!, /^\d+:0$/);
    assert.equal(await s.treeToken(), empty);
    await s.put('a/SKILL.md', skillMd('a'));
    const written = await s.treeToken();
    assert.notEqual(written, empty);
    assert.equal(await s.put('a/SKILL.md', skillMd('a')), false);
    assert.equal(await s.treeToken(), written, 'a put that writes nothing leaves the token');
    await s.remove('a/SKILL.md');
    assert.notEqual(await s.treeToken(), written);
  });

  test('every kind of plain SQL write changes it; statements that touch no row and reads do not', async () => {
    const s = open();
    const other = open();
    const ns = s.namespace;
    await putTree(other, { 'o/SKILL.md': skillMd('o') });
    const otherToken = await other.treeToken();
    const steps: [string, string, unknown[], boolean][] = [
      ['INSERT', `INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'a/SKILL.md', $2)`, [ns, bytes(skillMd('a'))], true],
      ['multi-row INSERT', `INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'a/x.md', $2), ($1, 'a/y.md', $2)`, [ns, bytes('x')], true],
      ['UPDATE', `UPDATE ${t} SET content = $2 WHERE namespace = $1 AND path = 'a/x.md'`, [ns, bytes('x2')], true],
      ['UPDATE of no row', `UPDATE ${t} SET content = $2 WHERE namespace = $1 AND path = 'nope'`, [ns, bytes('x')], false],
      [
        'ON CONFLICT upsert (update)',
        `INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'a/y.md', $2) ON CONFLICT (namespace, path) DO UPDATE SET content = EXCLUDED.content`,
        [ns, bytes('y2')],
        true,
      ],
      [
        'ON CONFLICT upsert (insert)',
        `INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'a/z.md', $2) ON CONFLICT (namespace, path) DO UPDATE SET content = EXCLUDED.content`,
        [ns, bytes('z')],
        true,
      ],
      [
        'ON CONFLICT DO NOTHING of an existing row',
        `INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'a/z.md', $2) ON CONFLICT DO NOTHING`,
        [ns, bytes('-')],
        false,
      ],
      ['DELETE of no row', `DELETE FROM ${t} WHERE namespace = $1 AND path = 'nope'`, [ns], false],
      ['multi-row DELETE', `DELETE FROM ${t} WHERE namespace = $1 AND path IN ('a/x.md', 'a/y.md')`, [ns], true],
      ['SELECT', `SELECT * FROM ${t} WHERE namespace = $1`, [ns], false],
    ];
    let token = await s.treeToken();
    for (const [what, sql, values, changes] of steps) {
      await env.admin.query(sql, values);
      const next = await s.treeToken();
      if (changes) assert.notEqual(next, token, `${what} changes the token`);
      else assert.equal(next, token, `${what} leaves the token`);
      token = next;
    }
    assert.equal(await other.treeToken(), otherToken, 'writes to one namespace leave another’s token');
    // A row moved to another namespace changes both.
    await env.admin.query(`UPDATE ${t} SET namespace = $2 WHERE namespace = $1 AND path = 'a/z.md'`, [ns, other.namespace]);
    assert.notEqual(await s.treeToken(), token);
    assert.notEqual(await other.treeToken(), otherToken);
  });

  test('a statement writing thousands of rows bumps its namespace’s generation once', async () => {
    const s = open();
    await env.admin.query(`INSERT INTO ${t} (namespace, path, content) SELECT $1, 'bulk/f' || i || '.md', $2 FROM generate_series(1, 5000) AS i`, [
      s.namespace,
      bytes('x'),
    ]);
    const first = Number((await s.treeToken())!.split(':')[1]);
    await env.admin.query(`UPDATE ${t} SET content = $2 WHERE namespace = $1`, [s.namespace, bytes('y')]);
    assert.equal(Number((await s.treeToken())!.split(':')[1]), first + 1);
  });

  test('TRUNCATE changes the token of every namespace of the table, not of another table', async () => {
    const table = uniqueName('trunc');
    extraTables.push(table);
    const a = open(undefined, table);
    await a.migrate();
    const b = open(undefined, table);
    const elsewhere = open();
    await putTree(a, { 'a/SKILL.md': skillMd('a') });
    await putTree(b, { 'b/SKILL.md': skillMd('b') });
    await putTree(elsewhere, { 'e/SKILL.md': skillMd('e') });
    const [ta, tb, te] = [await a.treeToken(), await b.treeToken(), await elsewhere.treeToken()];
    await env.admin.query(`TRUNCATE ${pg.escapeIdentifier(table)}`);
    assert.notEqual(await a.treeToken(), ta);
    assert.notEqual(await b.treeToken(), tb);
    assert.equal(await elsewhere.treeToken(), te);
  });

  test('an uncommitted write is not in the token others read; a rolled-back one leaves it as it was', async () => {
    const s = open();
    await s.put('a/SKILL.md', skillMd('a'));
    const token = await s.treeToken();
    const writer = await env.admin.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO ${t} (namespace, path, content) VALUES ($1, 'b/SKILL.md', $2)`, [s.namespace, bytes(skillMd('b'))]);
      await writer.query(`DELETE FROM ${t} WHERE namespace = $1 AND path = 'a/SKILL.md'`, [s.namespace]);
      assert.equal(await s.treeToken(), token, 'not visible before commit');
      await writer.query('ROLLBACK');
      assert.equal(await s.treeToken(), token, 'rolled back: unchanged');
      await writer.query('BEGIN');
      await writer.query(`DELETE FROM ${t} WHERE namespace = $1`, [s.namespace]);
      await writer.query('COMMIT');
    } finally {
      writer.release();
    }
    assert.notEqual(await s.treeToken(), token, 'committed: changed');
  });

  test('a disabled generation trigger makes the token undefined (writes would go uncounted)', async () => {
    const table = uniqueName('disabled');
    extraTables.push(table);
    const s = open(undefined, table);
    await s.migrate();
    assert.equal(typeof (await s.treeToken()), 'string');
    await env.admin.query(`ALTER TABLE ${pg.escapeIdentifier(table)} DISABLE TRIGGER skillmount_gen_update`);
    assert.equal(await s.treeToken(), undefined);
    await env.admin.query(`ALTER TABLE ${pg.escapeIdentifier(table)} ENABLE TRIGGER skillmount_gen_update`);
    assert.equal(typeof (await s.treeToken()), 'string');
  });

  test('a failing query throws a StorageError naming the table and namespace', async () => {
    const pool = testPool(env.db.connectionString, 1);
    const s = postgresStorage({ pool, table: env.table, namespace: 'gone' });
    await pool.end();
    await assert.rejects(s.treeToken(), (error: unknown) => {
      assert.ok(error instanceof StorageError);
      // Not the server's refusal: the message is the pool's own, as a listing's would be.
      assert.match(error.message, new RegExp(`PostgreSQL table ${env.table}, namespace "gone": Cannot use a pool after calling end`));
      return true;
    });
  });
});

describe('a catalog over a PostgreSQL table', () => {
  test('reloads with nothing changed in one query, without listing; a write is listed and served', async () => {
    const s = open(undefined, env.table, counting.pool);
    await putTree(s, { 'a/SKILL.md': skillMd('a'), 'a/notes.md': 'notes\n' });
    const catalog = await SkillCatalog.load(s, quiet);
    counting.reset();
    const report = await catalog.reload();
    assert.deepEqual(report, { added: [], removed: [], changed: [], listChanged: false });
    assert.equal(counting.queries.length, 1, counting.queries.map((q) => q.text).join('\n---\n'));
    assert.match(counting.queries[0]!.text, /_gen/);
    await s.put('b/SKILL.md', skillMd('b'));
    counting.reset();
    assert.deepEqual((await catalog.reload()).added, ['skill://b/SKILL.md']);
    assert.ok(counting.queries.some((q) => q.text.startsWith('SELECT path, size, sha256')));
  });

  test('a write committed between the token and the end of the listing is served by the next reload', async () => {
    const s = open();
    await putTree(s, { 'a/SKILL.md': skillMd('a') });
    let writeDuringListing = false;
    const files: SkillFiles = {
      list: (dir) => s.list(dir),
      read: (path, options) => s.read(path, options),
      treeToken: () => s.treeToken(),
      async listAll(options) {
        const listing = await s.listAll(options);
        if (writeDuringListing) {
          writeDuringListing = false;
          await s.put('late/SKILL.md', skillMd('late'));
        }
        return listing;
      },
    };
    const catalog = await SkillCatalog.load(files, quiet);
    await s.put('b/SKILL.md', skillMd('b'));
    writeDuringListing = true;
    assert.deepEqual((await catalog.reload()).added, ['skill://b/SKILL.md']);
    assert.deepEqual((await catalog.reload()).added, ['skill://late/SKILL.md']);
  });
});

/** The statements migrate() of the previous version ran: the table, the notify function and its two triggers. */
async function createOldTable(table: string): Promise<void> {
  const id = pg.escapeIdentifier(table);
  const fn = pg.escapeIdentifier(`${table}_notify`);
  await env.admin.query(`CREATE TABLE ${id} (
    namespace text COLLATE "C" NOT NULL DEFAULT '',
    path text COLLATE "C" NOT NULL,
    content bytea NOT NULL,
    size integer GENERATED ALWAYS AS (octet_length(content)) STORED,
    sha256 text GENERATED ALWAYS AS ('sha256:' || encode(sha256(content), 'hex')) STORED,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (namespace, path))`);
  await env.admin.query(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $f$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN PERFORM pg_notify(${pg.escapeLiteral(`${table}_changed`)}, '*'); RETURN NULL; END IF;
      IF TG_OP <> 'INSERT' THEN PERFORM pg_notify(${pg.escapeLiteral(`${table}_changed`)}, OLD.namespace); END IF;
      IF TG_OP <> 'DELETE' THEN PERFORM pg_notify(${pg.escapeLiteral(`${table}_changed`)}, NEW.namespace); END IF;
      RETURN NULL;
    END $f$`);
  await env.admin.query(`CREATE TRIGGER skillmount_notify AFTER INSERT OR UPDATE OR DELETE ON ${id} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  await env.admin.query(`CREATE TRIGGER skillmount_notify_truncate AFTER TRUNCATE ON ${id} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
}

describe('a table without the generation table', () => {
  test('migrated by the previous version: undefined, a catalog reloads by listing; migrate() upgrades it and the same storage has a token', async () => {
    const table = uniqueName('old');
    extraTables.push(table);
    await createOldTable(table);
    const s = open(undefined, table);
    const neighbour = open(undefined, table);
    await putTree(s, { 'a/SKILL.md': skillMd('a') });
    await putTree(neighbour, { 'n/SKILL.md': skillMd('n') });
    assert.equal(await s.treeToken(), undefined);
    const catalog = await SkillCatalog.load(s, quiet);
    await env.admin.query(`INSERT INTO ${pg.escapeIdentifier(table)} (namespace, path, content) VALUES ($1, 'b/SKILL.md', $2)`, [
      s.namespace,
      bytes(skillMd('b')),
    ]);
    assert.deepEqual((await catalog.reload()).added, ['skill://b/SKILL.md']);

    await s.migrate();
    const upgraded = await s.treeToken();
    assert.match(upgraded!, /^\d+:\d+$/);
    assert.deepEqual((await catalog.reload()).added, []);
    await s.migrate();
    assert.equal(await s.treeToken(), upgraded, 'migrate() of an up-to-date table changes no token');
    // Rows written before the upgrade have their namespace counted, so TRUNCATE changes its token too.
    const neighbourToken = await open(neighbour.namespace, table).treeToken();
    await env.admin.query(`TRUNCATE ${pg.escapeIdentifier(table)}`);
    assert.notEqual(await s.treeToken(), upgraded);
    assert.notEqual(await open(neighbour.namespace, table).treeToken(), neighbourToken);
    assert.deepEqual((await catalog.reload()).removed.sort(), ['skill://a/SKILL.md', 'skill://b/SKILL.md']);
  });

  test('a table made by hand (no generation table): undefined, never an error, and the catalog serves its writes', async () => {
    const table = uniqueName('hand');
    extraTables.push(table);
    await env.admin.query(
      `CREATE TABLE ${pg.escapeIdentifier(table)} (namespace text NOT NULL, path text NOT NULL, content bytea NOT NULL, size integer, sha256 text, PRIMARY KEY (namespace, path))`,
    );
    const s = open('', table, env.admin);
    const asked = open('', table, counting.pool);
    const sql = `INSERT INTO ${pg.escapeIdentifier(table)} (namespace, path, content, size, sha256) VALUES ('', $1, $2::bytea, octet_length($2::bytea), 'sha256:' || encode(sha256($2::bytea), 'hex'))`;
    await env.admin.query(sql, ['a/SKILL.md', bytes(skillMd('a'))]);
    assert.equal(await s.treeToken(), undefined);
    assert.equal(await asked.treeToken(), undefined);
    counting.reset();
    assert.equal(await asked.treeToken(), undefined);
    assert.equal(counting.queries.length, 0, 'a table found without a generation table is not asked again at once');
    const catalog = await SkillCatalog.load(s, quiet);
    await env.admin.query(sql, ['b/SKILL.md', bytes(skillMd('b'))]);
    assert.equal(await s.treeToken(), undefined);
    assert.deepEqual((await catalog.reload()).added, ['skill://b/SKILL.md']);
  });
});

describe('roles', () => {
  test('a writer without a grant on the generation table still bumps it; a reader without one gets undefined and one warning', async () => {
    const table = uniqueName('roles');
    extraTables.push(table);
    const owner = open(undefined, table);
    await owner.migrate();
    const id = pg.escapeIdentifier(table);
    const roles: TestRole[] = [];
    const pools: pg.Pool[] = [];
    try {
      const writerRole = await createLoginRole(env.admin, env.db.connectionString, 'writer');
      roles.push(writerRole);
      const readerRole = await createLoginRole(env.admin, env.db.connectionString, 'reader');
      roles.push(readerRole);
      await env.admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${id} TO ${writerRole.name}; GRANT SELECT ON ${id} TO ${readerRole.name}`);
      const as = (role: TestRole) => {
        const pool = testPool(role.connectionString, 1);
        pools.push(pool);
        return pool;
      };
      const warnings: StorageError[] = [];
      const writer = postgresStorage({ pool: as(writerRole), table, namespace: owner.namespace });
      const reader = postgresStorage({ pool: as(readerRole), table, namespace: owner.namespace, onError: (e) => warnings.push(e) });
      const before = await owner.treeToken();
      await writer.put('a/SKILL.md', skillMd('a'));
      assert.notEqual(await owner.treeToken(), before);
      assert.equal(await reader.treeToken(), undefined);
      assert.equal(await reader.treeToken(), undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.message, /GRANT SELECT ON .*_gen/);
      assert.deepEqual(
        (await SkillCatalog.load(reader, quiet)).entries.map((e) => e.uri),
        ['skill://a/SKILL.md'],
      );
    } finally {
      await Promise.all(pools.map((p) => p.end()));
      for (const role of roles) await role.drop();
    }
  });
});
