/**
 * Readiness from the endpoint and both adapters (`health()`): loading (Express loads in the
 * background), ready with the skill count, degraded but still ready while the last reload failed
 * (the previous catalog keeps serving), ready again once a reload succeeds, failed when the first
 * load failed, and stopping once closing began. Bodies hold no error text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { createSkillsEndpoint, memoryStorage, SkillCatalog, type SkillFiles, type SkillsHealth } from '@skillmount/core';
import { skillMd } from '../support/skill-md.js';

const FILES = { 'kept/SKILL.md': skillMd('kept', 'Served throughout.') };
const quiet = { onWarning: () => {} };

/** Under `strict`, a SKILL.md without frontmatter fails the whole reload; removing it lets the next succeed. */
async function throughAFailedReload(files: ReturnType<typeof memoryStorage>, reload: () => Promise<unknown>, health: () => SkillsHealth) {
  const first = health();
  assert.deepEqual(first, { ready: true, status: 'ready', skills: 1, loadedAt: first.loadedAt });
  files.write('broken/SKILL.md', 'no frontmatter\n');
  await assert.rejects(reload());
  const degraded = health();
  assert.deepEqual(degraded, {
    ready: true,
    status: 'degraded',
    skills: 1,
    loadedAt: first.loadedAt,
    code: 'reload-failed',
    reason: 'the last reload failed; serving the previous catalog',
    failedAt: degraded.failedAt,
  });
  assert.doesNotMatch(JSON.stringify(degraded), /broken|frontmatter/, 'no error text');
  files.remove('broken');
  await reload();
  assert.equal(health().status, 'ready');
}

test('createSkillsEndpoint: ready, degraded while a reload fails, ready again, stopping once closed', async () => {
  const files = memoryStorage(FILES);
  const catalog = await SkillCatalog.load(files, { strict: true, ...quiet });
  const endpoint = createSkillsEndpoint({ source: catalog });
  await throughAFailedReload(
    files,
    () => catalog.reload(),
    () => endpoint.health(),
  );
  await endpoint.close();
  assert.deepEqual(endpoint.health(), { ready: false, status: 'stopping' });
});

test('Fastify: app.skills.health() the same, stopping from app.close()', async () => {
  const files = memoryStorage(FILES);
  const app = Fastify({ requestTimeout: 30_000 });
  await app.register(skillsPlugin, { storage: files, strict: true, ...quiet });
  await throughAFailedReload(
    files,
    () => app.skills.reload(),
    () => app.skills.health(),
  );
  app.get('/healthz', async (_request, reply) => {
    const health = app.skills.health();
    return reply.code(health.ready ? 200 : 503).send(health);
  });
  assert.equal((await app.inject('/healthz')).statusCode, 200);
  await app.close();
  assert.deepEqual(app.skills.health(), { ready: false, status: 'stopping' });
});

test('Express: loading while the catalog loads, ready, degraded, failed after a failed first load, stopping once closed', async () => {
  const files = memoryStorage(FILES);
  const router = skillsMiddleware({ storage: files, strict: true, ...quiet });
  assert.deepEqual(router.health(), { ready: false, status: 'loading' });
  await router.ready;
  await throughAFailedReload(
    files,
    () => router.reload(),
    () => router.health(),
  );
  await router.close();
  assert.deepEqual(router.health(), { ready: false, status: 'stopping' });

  const unreachable: SkillFiles = {
    list: async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:5432');
    },
    read: async () => new Uint8Array(),
  };
  const failing = skillsMiddleware({ storage: unreachable, ...quiet });
  await assert.rejects(failing.ready);
  const failed = failing.health();
  assert.deepEqual(failed, { ready: false, status: 'failed', code: 'load-failed', reason: 'the skills could not be loaded', failedAt: failed.failedAt });
  assert.doesNotMatch(JSON.stringify(failed), /10\.0\.0\.7|ECONNREFUSED/, 'no host nor error text');
  await failing.close();
});
