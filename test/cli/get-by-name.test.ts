/**
 * `skillmount get <url> <name | skill-path | uri>`: a skill is found by the name `ls` shows, by its
 * skill path, or by its URI, against a real server. A name several skills share is refused with
 * the list of their paths and URIs; a skill path is never ambiguous.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { SkillCatalog, memoryStorage, type SkillSource } from '@skillmount/core';
import { serveOurs, type Served } from '../client/support/servers.js';
import { startLyingServer, type LyingServer } from '../client/support/lying-server.js';
import { skillMd } from '../support/skill-md.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

const cli = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

const TREE: Record<string, string> = {
  'git-workflow/SKILL.md': skillMd('git-workflow', { description: 'The git-workflow skill in git-workflow.', body: '# git-workflow\n' }),
  'acme/billing/invoice-rules/SKILL.md': skillMd('invoice-rules', {
    description: 'The invoice-rules skill in acme/billing/invoice-rules.',
    body: '# acme/billing/invoice-rules\n',
  }),
  'acme/billing/invoice-rules/rules.md': 'Round half to even.\n',
  'acme/refunds/SKILL.md': skillMd('refunds', { description: 'The refunds skill in acme/refunds.', body: '# acme/refunds\n' }),
  'globex/refunds/SKILL.md': skillMd('refunds', { description: 'The refunds skill in globex/refunds.', body: '# globex/refunds\n' }),
  'onboarding/SKILL.md': skillMd('onboarding', { description: 'The onboarding skill in onboarding.', body: '# onboarding\n' }),
  'acme/onboarding/SKILL.md': skillMd('onboarding', { description: 'The onboarding skill in acme/onboarding.', body: '# acme/onboarding\n' }),
  'vault/unlisted/SKILL.md': skillMd('unlisted', { description: 'The unlisted skill in vault/unlisted.', body: '# vault/unlisted\n' }),
};
let served: Served;
let liar: LyingServer;
before(async () => {
  liar = await startLyingServer();
  const catalog = await SkillCatalog.load(memoryStorage(TREE), { onWarning: () => {} });
  // A server may serve skills it does not list: vault/unlisted is one, reachable by skills/get only.
  const source: SkillSource = {
    list: async (params) => {
      const page = await catalog.list(params);
      return { ...page, skills: page.skills.filter((s) => !s.uri.includes('/unlisted/')) };
    },
    get: (uri) => catalog.get(uri),
    read: (uri) => catalog.read(uri),
  };
  served = await serveOurs(source);
});
after(async () => {
  await served.close();
  await liar.close();
});

test("get by the name ls shows prints that skill's SKILL.md, with nothing on stderr", async () => {
  const r = await cli('get', served.url, 'git-workflow');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, TREE['git-workflow/SKILL.md']);
  assert.equal(r.stderr, '');
  // The name of a prefixed skill, and a file of it.
  const rules = await cli('get', served.url, 'invoice-rules', 'rules.md');
  assert.equal(rules.code, 0, rules.stderr);
  assert.equal(rules.stdout, TREE['acme/billing/invoice-rules/rules.md']);
});

test('get by skill path (with or without /SKILL.md) and by URI print the same file', async () => {
  const expected = TREE['acme/billing/invoice-rules/SKILL.md'];
  for (const ref of ['acme/billing/invoice-rules', 'acme/billing/invoice-rules/SKILL.md', 'skill://acme/billing/invoice-rules/SKILL.md']) {
    const r = await cli('get', served.url, ref);
    assert.equal(r.code, 0, `${ref}: ${r.stderr}`);
    assert.equal(r.stdout, expected, ref);
  }
});

test("a name two skills share is refused, listing each one's path and URI; each path then works", async () => {
  const r = await cli('get', served.url, 'refunds');
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stdout, '', 'nothing printed on stdout');
  assert.equal(
    r.stderr,
    'skillmount: 2 skills are named "refunds"; give the skill path or URI of the one you want:\n' +
      '  acme/refunds  skill://acme/refunds/SKILL.md\n' +
      '  globex/refunds  skill://globex/refunds/SKILL.md\n',
  );
  for (const where of ['acme/refunds', 'globex/refunds']) {
    const one = await cli('get', served.url, where);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(one.stdout, TREE[`${where}/SKILL.md`]);
  }
});

test('a name that is also a skill path gets the skill at that path, and stderr names the others', async () => {
  const r = await cli('get', served.url, 'onboarding');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, TREE['onboarding/SKILL.md']);
  assert.equal(
    r.stderr,
    'skillmount: "onboarding" is the skill path of skill://onboarding/SKILL.md; other skills with that name: skill://acme/onboarding/SKILL.md\n',
  );
});

test('a skill path the server does not list is asked for with skills/get', async () => {
  const r = await cli('get', served.url, 'vault/unlisted');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, TREE['vault/unlisted/SKILL.md']);
});

test('an unknown name exits 1 and says how to find the names; invalid listed entries are counted', async () => {
  const r = await cli('get', served.url, 'nope');
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `skillmount: no skill named "nope" or at that skill path on ${served.url}. Run "skillmount ls ${served.url}" to see the names and URIs\n`,
  );
  // An entry the client refuses does not stop the lookup, and is counted.
  const withInvalid = await cli('get', liar.url('terminal-uri'), 'nope');
  assert.equal(withInvalid.code, 1);
  assert.match(withInvalid.stderr, /no skill named "nope" or at that skill path on \S+ \(1 listed entry was invalid and left out\)\. Run "skillmount ls /);
  const unknownPath = await cli('get', served.url, 'acme/nope');
  assert.equal(unknownPath.code, 1);
  assert.match(unknownPath.stderr, /no skill named "acme\/nope" or at that skill path/);
});

test('a name typed with control characters is echoed escaped', async () => {
  const r = await cli('get', served.url, 'x\x1b]0;pwned\x07');
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /[\x00-\x08\x0b-\x1f]/);
  assert.match(r.stderr, /no skill named "x\\u001b\]0;pwned\\u0007"/);
});
