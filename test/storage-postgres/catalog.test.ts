import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { OptionError, SkillCatalog, StorageError, sha256Digest, type SkillResource, type SkillWarning } from '@skillmount/core';
import { postgresStorage } from '@skillmount/storage-postgres';
import { uniqueName } from '../support/postgres.js';
import { countingPool, putTree, setup, text, type CountingPool } from './helpers.js';
import { skillMd } from '../support/skill-md.js';

let env: Awaited<ReturnType<typeof setup>>;
let counting: CountingPool;

before(async () => {
  env = await setup('catalog');
  counting = countingPool(env.db.connectionString);
});
after(async () => {
  await counting.pool.end();
  await env.teardown();
});

const tree = () => ({
  'git-workflow/SKILL.md': skillMd('git-workflow'),
  'git-workflow/references/commit-messages.md': '# Commit messages\n',
  'pdf-processing/SKILL.md': skillMd('pdf-processing'),
  'pdf-processing/scripts/fill_form.py': 'print("fill")\n',
  'pdf-processing/templates/invoice.md': '# Invoice\n',
  'acme/billing/refunds/SKILL.md': skillMd('refunds'),
  'acme/billing/refunds/templates/approved.md': 'Approved.\n',
});

describe('namespaces', () => {
  test('isolate trees in one table', async () => {
    const a = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('tenant_a') });
    const b = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('tenant_b') });
    await putTree(a, { 'shared/SKILL.md': skillMd('shared', 'Tenant A.'), 'only-a/SKILL.md': skillMd('only-a') });
    await putTree(b, { 'shared/SKILL.md': skillMd('shared', 'Tenant B.') });

    assert.deepEqual((await a.listAll()).map((f) => f.path).sort(), ['only-a/SKILL.md', 'shared/SKILL.md']);
    assert.deepEqual(
      (await b.listAll()).map((f) => f.path),
      ['shared/SKILL.md'],
    );
    assert.deepEqual(
      (await b.list('')).map((e) => e.name),
      ['shared'],
    );
    assert.match(new TextDecoder().decode(await b.read('shared/SKILL.md')), /Tenant B\./);
    await assert.rejects(b.read('only-a/SKILL.md'), (error: Error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.path, 'only-a/SKILL.md');
      assert.ok(error.message.includes(env.table) && error.message.includes(b.namespace), error.message);
      return true;
    });
    await assert.rejects(b.list('only-a'), (error: Error) => error.message.includes('only-a') && error.message.includes(b.namespace));

    const [catalogA, catalogB] = await Promise.all([SkillCatalog.load(a), SkillCatalog.load(b)]);
    assert.equal((await catalogA.get('skill://shared/SKILL.md')).frontmatter.description, 'Tenant A.');
    assert.equal((await catalogB.get('skill://shared/SKILL.md')).frontmatter.description, 'Tenant B.');
    await assert.rejects(catalogB.get('skill://only-a/SKILL.md'));

    assert.equal(await b.remove('shared/SKILL.md'), true);
    assert.deepEqual(await b.listAll(), []);
    assert.equal((await a.listAll()).length, 2, 'a removal in one namespace leaves the other alone');
  });
});

describe('queries per catalog build', () => {
  test('a build is the tree token, the listing and the SKILL.md bodies; an unchanged reload is the tree token alone', async () => {
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('count') });
    await putTree(storage, tree());

    counting.reset();
    const catalog = await SkillCatalog.load(storage);
    // The first tree token also finds the generation table: two small queries, once per storage.
    assert.equal(counting.queries.length, 4, counting.queries.map((q) => q.text).join('\n'));
    assert.equal(counting.queries.filter((q) => q.text.includes(`${env.table}_gen`)).length, 1, 'the token query');
    assert.equal(counting.queries.filter((q) => q.text.startsWith('SELECT path, size, sha256')).length, 1, 'one listAll query');
    const bodies = counting.queries.find((q) => q.text.startsWith('SELECT path, sha256, content'))!;
    assert.deepEqual([...(bodies.values[1] as string[])].sort(), ['acme/billing/refunds/SKILL.md', 'git-workflow/SKILL.md', 'pdf-processing/SKILL.md']);
    assert.equal(catalog.bodiesRead, 3);
    assert.equal(catalog.entries.length, 3);

    // The database vouched for the other files' digests; serving one still reads and matches it.
    const served = await catalog.read('skill://pdf-processing/scripts/fill_form.py');
    assert.deepEqual(served.published, { size: served.bytes.byteLength, digest: sha256Digest(served.bytes) });
    assert.deepEqual(served.bytes, text('print("fill")\n'));

    counting.reset();
    const unchanged = await catalog.reload();
    assert.equal(unchanged.listChanged, false);
    assert.equal(catalog.bodiesRead, 0);
    assert.equal(counting.queries.length, 1, 'a reload with nothing changed is one query');
    assert.equal(counting.queries.filter((q) => q.text.startsWith('SELECT path, size, sha256')).length, 0, 'and lists nothing');

    await storage.put('pdf-processing/templates/invoice.md', '# Invoice v2\n');
    counting.reset();
    const changed = await catalog.reload();
    assert.deepEqual(changed.changed, ['skill://pdf-processing/SKILL.md']);
    assert.equal(catalog.bodiesRead, 0, 'a changed supporting file is taken from its new digest without reading it');
    assert.equal(counting.queries.length, 2, 'the tree token and the listing');
    const invoice = ((await catalog.get('skill://pdf-processing/SKILL.md')).resources as SkillResource[]).find((r) => r.uri.endsWith('invoice.md'))!;
    assert.equal(invoice.digest, sha256Digest(text('# Invoice v2\n')));

    await storage.put('git-workflow/SKILL.md', skillMd('git-workflow', 'Now with rebases.'));
    counting.reset();
    await catalog.reload();
    assert.equal(catalog.bodiesRead, 1, 'a changed SKILL.md is read again for its frontmatter');
    assert.deepEqual(
      counting.queries.find((q) => q.text.startsWith('SELECT path, sha256, content'))?.values[1],
      ['git-workflow/SKILL.md'],
      'only the changed one',
    );
    assert.equal(counting.queries.length, 3);
    assert.equal((await catalog.get('skill://git-workflow/SKILL.md')).frontmatter.description, 'Now with rebases.');
  });

  test('a SKILL.md written between the listing and its bytes is left to a read, and the catalog serves the new one', async () => {
    const namespace = uniqueName('race');
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace });
    await putTree(storage, tree());
    // A pool that writes the SKILL.md anew just before the bodies are fetched.
    const racing = new Proxy(counting.pool, {
      get(target, key) {
        if (key !== 'query') return Reflect.get(target, key);
        return async (text: unknown, values?: unknown[]) => {
          if (typeof text === 'string' && text.startsWith('SELECT path, sha256, content'))
            await storage.put('git-workflow/SKILL.md', skillMd('git-workflow', 'Written meanwhile.'));
          return target.query(text as string, values);
        };
      },
    });
    const listing = await postgresStorage({ pool: racing, table: env.table, namespace }).listAll();
    const item = listing.find((i) => i.path === 'git-workflow/SKILL.md')!;
    assert.equal(item.content, undefined, 'bytes that no longer match the listed digest are not passed on');
    assert.ok(listing.find((i) => i.path === 'pdf-processing/SKILL.md')!.content, 'the others are');
    const catalog = await SkillCatalog.load(postgresStorage({ pool: racing, table: env.table, namespace }));
    assert.equal((await catalog.get('skill://git-workflow/SKILL.md')).frontmatter.description, 'Written meanwhile.');
  });

  test('put() writes nothing when the content is already stored', async () => {
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('put') });
    assert.equal(await storage.put('a/SKILL.md', skillMd('a')), true);
    assert.equal(await storage.put('a/SKILL.md', skillMd('a')), false);
    assert.equal(await storage.put('a/SKILL.md', text(skillMd('a', 'changed'))), true);
    assert.equal(await storage.remove('a/SKILL.md'), true);
    assert.equal(await storage.remove('a/SKILL.md'), false);
  });

  test('list(dir) is one query served by the primary key', async () => {
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace: uniqueName('plan') });
    await putTree(storage, tree());
    counting.reset();
    assert.deepEqual((await storage.list('pdf-processing')).map((e) => `${e.name}:${e.kind}`).sort(), [
      'SKILL.md:file',
      'scripts:directory',
      'templates:directory',
    ]);
    assert.equal(counting.queries.length, 1);
    const [{ text: sql, values }] = counting.queries as [{ text: string; values: unknown[] }];
    const client = await env.admin.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, values);
      assert.match(JSON.stringify(rows[0]), new RegExp(`"Index Name":"${env.table}_pkey"`));
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

describe('rows that would escape the root', () => {
  test('are never served by a catalog, and read() refuses such paths without querying', async () => {
    const namespace = uniqueName('escape');
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace });
    await putTree(storage, { 'good/SKILL.md': skillMd('good'), 'good/notes.md': 'notes\n' });
    const bad = ['../secret.txt', 'a//b.md', '/abs.md', 'good/../../secret.txt', 'good/./notes.md', 'back\\slash.md'];
    // Written around the storage, as another program might.
    for (const path of bad) {
      await env.admin.query(`INSERT INTO ${pg.escapeIdentifier(env.table)} (namespace, path, content) VALUES ($1, $2, $3)`, [
        namespace,
        path,
        Buffer.from('secret'),
      ]);
    }

    const listing = await storage.listAll();
    for (const path of bad)
      assert.deepEqual(
        listing.find((f) => f.path === path),
        { path, kind: 'unsupported' },
        path,
      );

    const warnings: SkillWarning[] = [];
    const catalog = await SkillCatalog.load(storage, { onWarning: (w) => warnings.push(w) });
    assert.deepEqual(
      catalog.entries.map((e) => e.uri),
      ['skill://good/SKILL.md'],
    );
    assert.deepEqual(
      (catalog.entries[0]!.resources as SkillResource[]).map((r) => r.uri),
      ['skill://good/SKILL.md', 'skill://good/notes.md'],
    );
    assert.ok(warnings.length >= 1, 'the odd rows are reported');
    assert.ok(
      warnings.every((w) => w.code === 'unsupported' || w.code === 'bad-name'),
      JSON.stringify(warnings),
    );
    for (const uri of ['skill://good/../secret.txt', 'skill://good/%2e%2e/%2e%2e/secret.txt', 'skill://secret.txt'])
      await assert.rejects(catalog.read(uri), uri);

    // Walking folder by folder (no listAll) never serves them either.
    const walked = await SkillCatalog.load({ list: (dir) => storage.list(dir), read: (path) => storage.read(path) }, { onWarning: () => {} });
    assert.deepEqual(walked.entries, catalog.entries);

    counting.reset();
    for (const path of bad) {
      await assert.rejects(storage.read(path), (error: Error) => error instanceof StorageError && error.message.includes('not a relative path'), path);
    }
    await assert.rejects(storage.read('with\0nul.md'));
    await assert.rejects(storage.list('../x'));
    await assert.rejects(storage.put('../x.md', 'x'));
    await assert.rejects(storage.remove('a//b.md'));
    assert.equal(counting.queries.length, 0, 'refused before any query');
  });
});

describe('SQL injection', () => {
  test('namespace and path values are bound parameters, inert', async () => {
    const hostile = `x'); DROP TABLE ${env.table}; --`;
    const storage = postgresStorage({ pool: counting.pool, table: env.table, namespace: hostile });
    const paths = [`it's"; DELETE FROM ${env.table}; --.md`, 'a%/SKILL.md', 'a_/SKILL.md', 'ab/SKILL.md', "o'reilly/x.md"];
    for (const [i, path] of paths.entries()) await storage.put(path, `file ${i}`);

    assert.deepEqual((await storage.listAll()).map((f) => f.path).sort(), [...paths].sort());
    for (const [i, path] of paths.entries()) assert.deepEqual(await storage.read(path), text(`file ${i}`));
    // LIKE wildcards in a folder name match only themselves.
    assert.deepEqual(
      (await storage.list('a%')).map((e) => e.name),
      ['SKILL.md'],
    );
    assert.deepEqual(
      (await storage.list('a_')).map((e) => e.name),
      ['SKILL.md'],
    );
    await assert.rejects(storage.list('a'), /no such folder/);
    // The table is still there, with every other namespace's rows.
    const { rows } = await env.admin.query(`SELECT count(DISTINCT namespace)::int AS n FROM ${pg.escapeIdentifier(env.table)}`);
    assert.ok(rows[0].n >= 2);
    // A namespace that looks like a LIKE pattern sees only its own rows.
    assert.deepEqual(await postgresStorage({ pool: counting.pool, table: env.table, namespace: '%' }).listAll(), []);
  });

  test('a bad table option is refused when the storage is created', () => {
    for (const table of [`x; DROP TABLE ${env.table}`, 'files"', 'a.b.c', '1files', '', 'my-files', 'x'.repeat(56), 'schema.', '.files']) {
      assert.throws(
        () => postgresStorage({ pool: counting.pool, table }),
        (error: unknown) =>
          error instanceof OptionError &&
          error.option === 'table' &&
          error.message.startsWith('@skillmount/storage-postgres:') &&
          error.code === 'invalid-value' &&
          error instanceof RangeError,
        table,
      );
    }
    // Schema-qualified names are accepted.
    assert.equal(postgresStorage({ pool: counting.pool, table: 'skills.files' }).table, 'skills.files');
  });
});

describe('errors', () => {
  test('name the table, namespace and path and keep the cause', async () => {
    const storage = postgresStorage({ pool: counting.pool, table: uniqueName('missing'), namespace: 'tenant-x' });
    await assert.rejects(storage.read('a/SKILL.md'), (error: Error) => {
      assert.ok(error instanceof StorageError);
      assert.equal(error.path, 'a/SKILL.md');
      assert.match(error.message, /missing_.*namespace "tenant-x".*does not exist.*migrate\(\)/);
      assert.equal((error.cause as { code?: string }).code, '42P01');
      return true;
    });
    const present = postgresStorage({ pool: counting.pool, table: env.table, namespace: 'tenant-x' });
    await assert.rejects(
      present.read('a/nope.md'),
      (error: Error) => error.message.includes('"a/nope.md"') && error.message.includes(env.table) && error.message.includes('"tenant-x"'),
    );
  });
});
