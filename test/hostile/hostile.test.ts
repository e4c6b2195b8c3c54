import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillsClient } from '@skillmount/core/client';
import type { SkillWarning } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { connectClient } from '../support/client.js';
import { hostileCases, modernHostileCases, type HostileCase } from './cases.js';
import { makeHostileTree, type HostileTree } from './fixture.js';
import { jsonRpcMessages, send, type RawResponse } from './raw-http.js';
import { FRAMEWORKS, serve } from './servers.js';
import { inPool } from '../support/pool.js';

const PER_REQUEST_MS = 5000;
const IN_FLIGHT = 16;

/** Why an answer to a hostile request is wrong, or undefined when it is a clean refusal. */
function misbehaviour(c: HostileCase, r: RawResponse, tree: HostileTree): string | undefined {
  if (r.kind === 'timeout') return `no answer within ${PER_REQUEST_MS} ms`;
  if (r.kind === 'failed') return `no answer: ${r.error}`;
  const leaked = tree.all.find((m) => r.text.includes(m));
  if (leaked) return `answer carries file content (${leaked.split('-')[0]})`;
  // The request's own text may be echoed back in an error; the storage path must not appear otherwise.
  if (r.text.includes(tree.root) && !String(c.request.body ?? '').includes(tree.root)) return 'answer names the storage path';
  if (/\n\s*at .+:\d+:\d+/.test(r.text)) return 'answer carries a stack trace';
  if (r.status >= 400 && r.status < 600) return undefined;
  if (c.answerable && r.status === 200) return undefined;
  if (r.status < 200 || r.status >= 300) return `HTTP ${r.status}`;
  const messages = jsonRpcMessages(r);
  if (!messages || messages.length === 0) return `HTTP ${r.status} without a JSON-RPC error`;
  if (messages.some((m) => !(typeof m === 'object' && m !== null && 'error' in m))) return `HTTP ${r.status} with a result`;
  return undefined;
}

for (const framework of FRAMEWORKS) {
  test(`${framework}: hundreds of malformed and malicious requests are refused, nothing leaks, the server stays healthy`, { timeout: 60_000 }, async () => {
    const tree = makeHostileTree();
    const warnings: SkillWarning[] = [];
    const served = await serve(framework, { storage: fsStorage(tree.root), onWarning: (w) => warnings.push(w) });
    try {
      const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
      // The same harness sees successes and file content, so a refusal below is the server's doing.
      const control = await send(served.url, { body: rpc('resources/read', { uri: 'skill://alpha/SKILL.md' }) });
      assert.equal(control.kind, 'response');
      assert.ok(control.kind === 'response' && control.status === 200 && control.text.includes(tree.alpha.skill), 'a plain read through the raw harness works');
      assert.equal(misbehaviour({ group: 'control', name: 'control', request: {} }, control, tree)?.startsWith('answer carries file content'), true);

      const cases = hostileCases(tree.root);
      const answers = await inPool(cases, IN_FLIGHT, (c) => send(served.url, c.request, PER_REQUEST_MS));
      const bad = cases.flatMap((c, i) => {
        const why = misbehaviour(c, answers[i]!, tree);
        return why ? [`${c.group} / ${c.name}: ${why}`] : [];
      });
      const byGroup = new Map<string, number>();
      for (const c of cases) byGroup.set(c.group, (byGroup.get(c.group) ?? 0) + 1);
      console.log(`hostile ${framework}: ${cases.length} requests tried, ${bad.length} misbehaved (${[...byGroup].map(([g, n]) => `${g} ${n}`).join(', ')})`);
      assert.ok(cases.length >= 200, `at least 200 requests (${cases.length})`);
      assert.deepEqual(bad, []);
      const internal = warnings.filter((w) => w.code === 'internal-error');
      assert.deepEqual(internal, [], 'no hostile request reached an unexpected failure');

      // Healthy after: a normal client lists, gets and reads, every byte verified.
      const { client, close } = await connectClient(served.url);
      try {
        const skills = new SkillsClient(client);
        const listed = await skills.list();
        assert.deepEqual(
          listed.skills.map((s) => s.uri),
          ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'],
        );
        const { skill: beta } = await skills.get('skill://beta/SKILL.md');
        const data = await skills.read(beta, 'data/secret-beta.txt');
        assert.equal(data.verified, true);
        assert.equal(data.text, `${tree.beta.data}\n`);
        const guide = await skills.read(listed.skills[0]!, 'refs/guide.md');
        assert.equal(guide.text, `${tree.alpha.guide}\n`);
      } finally {
        await close();
      }
    } finally {
      await served.close();
      tree.remove();
    }
  });
}

for (const framework of FRAMEWORKS) {
  test(`${framework}, protocol 2026-07-28: the same attacks in the modern envelope are refused, nothing leaks, the server stays healthy`, {
    timeout: 60_000,
  }, async () => {
    const tree = makeHostileTree();
    const warnings: SkillWarning[] = [];
    const served = await serve(framework, { storage: fsStorage(tree.root), onWarning: (w) => warnings.push(w) });
    try {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'skill://alpha/SKILL.md' };
      const control = await send(served.url, {
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'skill://alpha/SKILL.md', _meta: meta } }),
      });
      assert.ok(
        control.kind === 'response' && control.status === 200 && control.text.includes(tree.alpha.skill),
        'a plain modern read through the raw harness works',
      );

      const cases = modernHostileCases(tree.root);
      const answers = await inPool(cases, IN_FLIGHT, (c) => send(served.url, c.request, PER_REQUEST_MS));
      const bad = cases.flatMap((c, i) => {
        const why = misbehaviour(c, answers[i]!, tree);
        return why ? [`${c.group} / ${c.name}: ${why}`] : [];
      });
      console.log(`hostile ${framework} 2026-07-28: ${cases.length} requests tried, ${bad.length} misbehaved`);
      assert.ok(cases.length >= 200, `at least 200 requests (${cases.length})`);
      assert.deepEqual(bad, []);
      assert.deepEqual(
        warnings.filter((w) => w.code === 'internal-error'),
        [],
        'no hostile request reached an unexpected failure',
      );
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is untouched');

      const { client, close } = await connectClient(served.url);
      try {
        const listed = await new SkillsClient(client).list();
        assert.deepEqual(
          listed.skills.map((s) => s.uri),
          ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'],
        );
      } finally {
        await close();
      }
    } finally {
      await served.close();
      tree.remove();
    }
  });
}
