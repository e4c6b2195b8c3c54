/**
 * skillmount's diagnostics_channel tracing channels: one `skillmount:request` trace per skills
 * request an MCP client made, on both eras (method, era, JSON-RPC id, `_meta`, client, URI,
 * skill; `error` for a refused one), none for the lookups a tool or a listing makes through the
 * same service; the `start` stores bound around the source's work (what lets a tracer make its
 * span the active one); one `skillmount:catalog` trace per load and reload. Through a real
 * endpoint over HTTP with the SDK's own client.
 */
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { after, before, test } from 'node:test';
import {
  createSkillsEndpoint,
  memoryStorage,
  SKILLS_CHANNELS,
  SkillCatalog,
  type CatalogBuildMessage,
  type SkillFiles,
  type SkillRequestMessage,
} from '@skillmount/core';
import { connectClient, errorCode } from '../support/client.js';
import { listenHttp, type Listening } from '../support/apps.js';
import { modern } from '../modern/support.js';
import { skillMd } from '../support/skill-md.js';

const FILES = {
  'alpha/SKILL.md': skillMd('alpha', 'First skill.'),
  'alpha/notes.md': '# Notes\n',
  'beta/SKILL.md': skillMd('beta', 'Second skill.'),
};

/** Each phase as the subscriber saw it then (the message is one object, filled in as the request goes). */
type Seen = { phase: string; message: SkillRequestMessage };
const requests: Seen[] = [];
const builds: { phase: string; message: CatalogBuildMessage }[] = [];
const span = new AsyncLocalStorage<string>();
const storeSeen: (string | undefined)[] = [];

const requestChannel = tracingChannel<unknown, SkillRequestMessage>(SKILLS_CHANNELS.request);
const catalogChannel = tracingChannel<unknown, CatalogBuildMessage>(SKILLS_CHANNELS.catalog);
const onRequest = {
  start: (message: SkillRequestMessage) => void requests.push({ phase: 'start', message: { ...message } }),
  end: () => {},
  asyncStart: () => {},
  asyncEnd: (message: SkillRequestMessage) => void requests.push({ phase: 'asyncEnd', message: { ...message } }),
  error: (message: SkillRequestMessage) => void requests.push({ phase: 'error', message: { ...message } }),
};
const onCatalog = {
  start: (message: CatalogBuildMessage) => void builds.push({ phase: 'start', message: { ...message } }),
  end: () => {},
  asyncStart: () => {},
  asyncEnd: (message: CatalogBuildMessage) => void builds.push({ phase: 'asyncEnd', message: { ...message } }),
  error: (message: CatalogBuildMessage) => void builds.push({ phase: 'error', message: { ...message } }),
};

let http: Listening;
let endpoint: ReturnType<typeof createSkillsEndpoint>;
let catalog: SkillCatalog;
let files: ReturnType<typeof memoryStorage>;

before(async () => {
  requestChannel.subscribe(onRequest);
  catalogChannel.subscribe(onCatalog);
  // What a tracer does to make its span active: bind a store to the start of each request trace.
  requestChannel.start.bindStore(span, (message) => `span for ${message.method}`);
  files = memoryStorage(FILES);
  // Reads observe the bound store: the source's work runs inside the trace.
  const observed: SkillFiles = {
    ...files,
    list: files.list.bind(files),
    read: async (path, options) => {
      storeSeen.push(span.getStore());
      return files.read(path, options);
    },
  };
  catalog = await SkillCatalog.load(observed, { cacheBytes: 0 });
  endpoint = createSkillsEndpoint({ source: catalog, sessions: true, tools: true });
  http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
});
after(async () => {
  requestChannel.unsubscribe(onRequest);
  catalogChannel.unsubscribe(onCatalog);
  requestChannel.start.unbindStore(span);
  await endpoint.close();
  await http.close();
});

/** The traces since `from`, as [phase, method, era, uri, skill, error code]. */
const summary = (from: number) =>
  requests
    .slice(from)
    .map(({ phase, message }) => [phase, message.method, message.era, message.uri, message.skill, (message.error as { code?: number })?.code]);

test('2025-11-25: one trace per skills request, with its id, client and skill; a refused read ends in error; a tool read is not one', async () => {
  const from = requests.length;
  storeSeen.length = 0;
  const { client, call, close } = await connectClient(http.url);
  try {
    await call('skills/list', {});
    await call('skills/get', { uri: 'skill://alpha/SKILL.md' });
    await client.readResource({ uri: 'skill://alpha/notes.md' });
    assert.equal(await errorCode(client.readResource({ uri: 'skill://nothing/SKILL.md' })), -32602);
    await client.callTool({ name: 'read_skill', arguments: { name: 'beta' } });
  } finally {
    await close();
  }
  assert.deepEqual(summary(from), [
    ['start', 'skills/list', '2025-11-25', undefined, undefined, undefined],
    ['asyncEnd', 'skills/list', '2025-11-25', undefined, undefined, undefined],
    ['start', 'skills/get', '2025-11-25', 'skill://alpha/SKILL.md', undefined, undefined],
    ['asyncEnd', 'skills/get', '2025-11-25', 'skill://alpha/SKILL.md', 'alpha', undefined],
    ['start', 'resources/read', '2025-11-25', 'skill://alpha/notes.md', undefined, undefined],
    ['asyncEnd', 'resources/read', '2025-11-25', 'skill://alpha/notes.md', 'alpha', undefined],
    // A refused URI names no skill: the attribute's values are the served skills' names only.
    ['start', 'resources/read', '2025-11-25', 'skill://nothing/SKILL.md', undefined, undefined],
    ['error', 'resources/read', '2025-11-25', 'skill://nothing/SKILL.md', undefined, -32602],
    ['asyncEnd', 'resources/read', '2025-11-25', 'skill://nothing/SKILL.md', undefined, -32602],
  ]);
  const first = requests[from]!.message;
  assert.deepEqual(first.client, { name: 'skillmount-tests', version: '0.0.0' });
  assert.equal(typeof first.requestId, 'number');
  assert.equal(typeof first.ctx.sessionId, 'string');
  assert.deepEqual(storeSeen, ['span for resources/read', undefined], 'the read of a request runs in its trace; the tool read in none');
});

test('2026-07-28: the era, the id and the trace context from _meta', async () => {
  const from = requests.length;
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  const answer = await modern(http.url, 'resources/read', { uri: 'skill://beta/SKILL.md' }, { meta: { traceparent }, id: 'read-1' });
  assert.equal(answer.status, 200, answer.text);
  const [start, end] = requests.slice(from);
  assert.deepEqual([start!.phase, end!.phase], ['start', 'asyncEnd']);
  assert.equal(start!.message.method, 'resources/read');
  assert.equal(start!.message.era, '2026-07-28');
  assert.equal(start!.message.requestId, 'read-1');
  assert.equal(start!.message.meta?.traceparent, traceparent);
  assert.equal(end!.message.skill, 'beta');
  assert.equal(start!.message.client?.name, 'skillmount-modern-tests');
});

test('skillmount:catalog: a load and a reload, with what they served and changed', async () => {
  const from = builds.length;
  files.write('gamma/SKILL.md', skillMd('gamma', 'Third skill.'));
  await catalog.reload();
  await SkillCatalog.load(memoryStorage(FILES));
  assert.deepEqual(
    builds.slice(from).map(({ phase, message }) => [phase, message.kind, message.outcome]),
    [
      ['start', 'reload', undefined],
      ['asyncEnd', 'reload', { skills: 3, bodiesRead: 1, added: 1, removed: 0, changed: 0 }],
      ['start', 'load', undefined],
      // A first load reads every file body it serves: two SKILL.md files and alpha's notes.
      ['asyncEnd', 'load', { skills: 2, bodiesRead: 3 }],
    ],
  );
});
