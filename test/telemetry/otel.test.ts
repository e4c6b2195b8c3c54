/**
 * `instrumentSkills` (@skillmount/core/telemetry) with the OpenTelemetry SDK's in-memory exporter
 * and a manual metric reader: golden spans (name, kind, attributes, parent, status) for a list, a
 * get, a read and a refused read on both protocol eras, and for a reload; the client's trace
 * context from `_meta` as the parent, as a link, or ignored; a malformed `traceparent`; the session
 * id hashed; `mcp.server.operation.duration` and the skill-read counters, their skill names bounded;
 * tenant loads, tenants held and evicted; a `.well-known` answer's route on the app's HTTP span;
 * storage calls as children of the request or build that made them.
 * Through a real endpoint over HTTP with the SDK's own client, and once through the Fastify plugin.
 */
import assert from 'node:assert/strict';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type HistogramMetricData, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import Fastify from 'fastify';
import skillsPlugin from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import {
  createSkillsEndpoint,
  createWellKnownHandler,
  memoryStorage,
  SkillCatalog,
  SKILLS_CHANNELS,
  tenantCatalogs,
  type SkillRequestMessage,
  type TenantCacheMessage,
} from '@skillmount/core';
import { instrumentSkills, SCHEMA_URL, type SkillsTelemetry } from '@skillmount/core/telemetry';
import { connectClient, errorCode } from '../support/client.js';
import { listenFastify, listenHttp, type Listening } from '../support/apps.js';
import { modern } from '../modern/support.js';
import { skillMd } from '../support/skill-md.js';

const FILES = {
  'alpha/SKILL.md': skillMd('alpha', 'First skill.'),
  'alpha/notes.md': '# Notes\n',
  'beta/SKILL.md': skillMd('beta', 'Second skill.'),
};
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;

class Reader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new Reader();
const meterProvider = new MeterProvider({ readers: [reader] });
let telemetry: SkillsTelemetry;
let http: Listening;
let endpoint: ReturnType<typeof createSkillsEndpoint>;
let files: ReturnType<typeof memoryStorage>;
let catalog: SkillCatalog;

before(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  telemetry = instrumentSkills({ tracerProvider, meterProvider, maxSkills: 1 });
  files = memoryStorage(FILES);
  catalog = await SkillCatalog.load(files);
  endpoint = createSkillsEndpoint({ source: catalog, sessions: true });
  http = await listenHttp((req, res) => endpoint.handle(req, res, undefined));
});
after(async () => {
  telemetry.close();
  await endpoint.close();
  await http.close();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

/** The spans recorded: without the `storage` option, none for storage calls (the golden trees hold every span). */
const finished = () => exporter.getFinishedSpans();

/** A span as the golden trees name it: variable values (ids, the hashed session) replaced by their shape. */
function golden(span: ReadableSpan) {
  const attributes = { ...span.attributes };
  if (typeof attributes['jsonrpc.request.id'] === 'string') attributes['jsonrpc.request.id'] = '<id>';
  if (typeof attributes['mcp.session.id'] === 'string') {
    assert.match(attributes['mcp.session.id'] as string, /^[0-9a-f]{32}$/, 'hashed');
    attributes['mcp.session.id'] = '<hashed>';
  }
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    attributes,
    parent: span.parentSpanContext?.spanId,
    links: span.links.length,
    status: span.status.code === SpanStatusCode.ERROR ? `ERROR ${span.status.message}` : SpanStatusCode[span.status.code],
  };
}

const base = (version: string, extra: Record<string, unknown> = {}) => ({
  'mcp.protocol.version': version,
  'network.protocol.name': 'http',
  'network.transport': 'tcp',
  'jsonrpc.request.id': '<id>',
  ...extra,
});

describe('spans by the MCP conventions', () => {
  test('2025-11-25: a list, a get, a read and a refused read', async () => {
    const { client, call, close } = await connectClient(http.url);
    let sessionId: string | undefined;
    try {
      await call('skills/list', {});
      await call('skills/get', { uri: 'skill://alpha/SKILL.md' });
      await client.readResource({ uri: 'skill://alpha/notes.md' });
      assert.equal(await errorCode(client.readResource({ uri: 'skill://nothing/SKILL.md' })), -32602);
      sessionId = (client as unknown as { transport: { sessionId?: string } }).transport.sessionId;
    } finally {
      await close();
    }
    const spans = finished();
    const session = { 'mcp.session.id': '<hashed>' };
    assert.deepEqual(spans.map(golden), [
      {
        name: 'skills/list',
        kind: 'SERVER',
        attributes: { 'mcp.method.name': 'skills/list', ...base('2025-11-25', session) },
        parent: undefined,
        links: 0,
        status: 'UNSET',
      },
      {
        name: 'skills/get',
        kind: 'SERVER',
        attributes: {
          'mcp.method.name': 'skills/get',
          ...base('2025-11-25', session),
          'mcp.resource.uri': 'skill://alpha/SKILL.md',
          'gen_ai.skill.name': 'alpha',
        },
        parent: undefined,
        links: 0,
        status: 'UNSET',
      },
      {
        name: 'resources/read',
        kind: 'SERVER',
        attributes: {
          'mcp.method.name': 'resources/read',
          ...base('2025-11-25', session),
          'mcp.resource.uri': 'skill://alpha/notes.md',
          'gen_ai.skill.name': 'alpha',
        },
        parent: undefined,
        links: 0,
        status: 'UNSET',
      },
      {
        name: 'resources/read',
        kind: 'SERVER',
        attributes: {
          'mcp.method.name': 'resources/read',
          ...base('2025-11-25', session),
          'mcp.resource.uri': 'skill://nothing/SKILL.md',
          'error.type': '-32602',
          'rpc.response.status_code': '-32602',
        },
        parent: undefined,
        links: 0,
        status: 'ERROR Resource skill://nothing/SKILL.md not found',
      },
    ]);
    assert.ok(sessionId && !spans.some((s) => Object.values(s.attributes).includes(sessionId)), 'the live session id is on no span');
    assert.deepEqual(spans[0]!.instrumentationScope.schemaUrl, SCHEMA_URL);
  });

  test('2026-07-28: the client trace context as the parent; a malformed traceparent ignored; the refused read', async () => {
    assert.equal((await modern(http.url, 'resources/read', { uri: 'skill://beta/SKILL.md' }, { meta: { traceparent: TRACEPARENT } })).status, 200);
    assert.equal((await modern(http.url, 'resources/read', { uri: 'skill://beta/SKILL.md' }, { meta: { traceparent: '00-zz-1-01' } })).status, 200);
    const refused = await modern(http.url, 'resources/read', { uri: 'skill://nothing/SKILL.md' });
    assert.ok(refused.message.error, refused.text);
    const [parented, malformed, failed] = finished();
    assert.deepEqual(golden(parented!), {
      name: 'resources/read',
      kind: 'SERVER',
      attributes: { 'mcp.method.name': 'resources/read', ...base('2026-07-28'), 'mcp.resource.uri': 'skill://beta/SKILL.md', 'gen_ai.skill.name': 'beta' },
      parent: CLIENT_SPAN,
      links: 0,
      status: 'UNSET',
    });
    assert.equal(parented!.spanContext().traceId, CLIENT_TRACE, "the client's trace");
    assert.equal(malformed!.parentSpanContext, undefined, 'a root span: the malformed context is ignored');
    assert.notEqual(malformed!.spanContext().traceId, CLIENT_TRACE);
    assert.equal(failed!.status.code, SpanStatusCode.ERROR);
    assert.equal(failed!.attributes['error.type'], '-32602');
  });

  test('a reload: an INTERNAL span with what changed', async () => {
    files.write('gamma/SKILL.md', skillMd('gamma', 'Third skill.'));
    await catalog.reload();
    files.remove('gamma');
    await catalog.reload();
    assert.deepEqual(
      finished().map((s) => [s.name, SpanKind[s.kind], s.attributes]),
      [
        [
          'skillmount.catalog.reload',
          'INTERNAL',
          {
            'skillmount.catalog.operation': 'reload',
            'skillmount.catalog.skills': 3,
            // The new SKILL.md only: the others are reused by their change tokens.
            'skillmount.catalog.bodies_read': 1,
            'skillmount.catalog.added': 1,
            'skillmount.catalog.removed': 0,
            'skillmount.catalog.changed': 0,
          },
        ],
        [
          'skillmount.catalog.reload',
          'INTERNAL',
          {
            'skillmount.catalog.operation': 'reload',
            'skillmount.catalog.skills': 2,
            'skillmount.catalog.bodies_read': 0,
            'skillmount.catalog.added': 0,
            'skillmount.catalog.removed': 1,
            'skillmount.catalog.changed': 0,
          },
        ],
      ],
    );
  });
});

test("traceContext 'link' and 'ignore'; options checked", async (t) => {
  telemetry.close();
  t.after(() => {
    telemetry = instrumentSkills({ tracerProvider, meterProvider, maxSkills: 1 });
  });
  for (const mode of ['link', 'ignore'] as const) {
    exporter.reset();
    const own = instrumentSkills({ tracerProvider, meterProvider, traceContext: mode });
    try {
      assert.equal((await modern(http.url, 'resources/read', { uri: 'skill://beta/SKILL.md' }, { meta: { traceparent: TRACEPARENT } })).status, 200);
    } finally {
      own.close();
    }
    const [span] = finished();
    assert.equal(span!.parentSpanContext, undefined, `${mode}: no parent`);
    assert.deepEqual(
      span!.links.map((l) => l.context.spanId),
      mode === 'link' ? [CLIENT_SPAN] : [],
    );
  }
  assert.throws(() => instrumentSkills({ traceContext: 'child' as never }), /option "traceContext" must be 'parent', 'link' or 'ignore', got "child"/);
  assert.throws(() => instrumentSkills({ sessionId: 'plain' as never }), /option "sessionId" must be 'hash', 'raw' or 'omit'/);
  assert.throws(() => instrumentSkills({ maxSkills: -1 }), /option "maxSkills" must be a whole number from 0/);
});

test('metrics: the operation duration by method, version and error; skill reads with the names bounded', async () => {
  // Two counters, by skill: the reads and their bytes.
  const bySkill = async () => {
    const all = (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const counter = (name: string) => {
      const metric = all.find((m) => m.descriptor.name === name) as SumMetricData | undefined;
      const points = (metric?.dataPoints ?? []).filter((p) => p.attributes['mcp.protocol.version'] === '2025-11-25');
      return { metric, points, of: (skill: string) => points.find((p) => p.attributes['gen_ai.skill.name'] === skill)?.value ?? 0 };
    };
    const reads = counter('skillmount.skill.reads');
    const bytes = counter('skillmount.skill.read.io');
    return {
      units: [reads.metric?.descriptor.unit, bytes.metric?.descriptor.unit],
      monotonic: [reads.metric?.isMonotonic, bytes.metric?.isMonotonic],
      names: reads.points.map((p) => p.attributes['gen_ai.skill.name']).sort(),
      byteNames: bytes.points.map((p) => p.attributes['gen_ai.skill.name']).sort(),
      reads: reads.of,
      bytes: bytes.of,
    };
  };
  const before = await bySkill();
  const { client, close } = await connectClient(http.url);
  const sizes: number[] = [];
  try {
    for (const uri of ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md']) {
      const { contents } = await client.readResource({ uri });
      sizes.push(Buffer.byteLength((contents[0] as { text: string }).text));
    }
  } finally {
    await close();
  }
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  const duration = all.find((m) => m.descriptor.name === 'mcp.server.operation.duration') as HistogramMetricData;
  assert.equal(duration.descriptor.unit, 's');
  const series = duration.dataPoints.map((p) => JSON.stringify(p.attributes));
  assert.ok(
    series.includes(JSON.stringify({ 'mcp.method.name': 'resources/read', 'mcp.protocol.version': '2025-11-25', 'network.transport': 'tcp' })),
    series.join('\n'),
  );
  assert.ok(
    duration.dataPoints.some((p) => p.attributes['error.type'] === '-32602'),
    'a refused read is its own series',
  );
  assert.ok(
    duration.dataPoints.every((p) => !('mcp.resource.uri' in p.attributes) && !('gen_ai.skill.name' in p.attributes)),
    'no URI or skill in the duration series',
  );
  const after = await bySkill();
  // maxSkills 1: the first skill read keeps its name, every other counts as _other.
  assert.deepEqual(after.names, ['_other', 'alpha']);
  assert.deepEqual(after.byteNames, ['_other', 'alpha']);
  assert.deepEqual(after.units, ['{read}', 'By']);
  assert.deepEqual(after.monotonic, [true, true]);
  assert.equal(after.reads('alpha') - before.reads('alpha'), 1, 'one read of alpha, under its name');
  assert.equal(after.reads('_other') - before.reads('_other'), 1, "beta's read, under _other");
  assert.equal(after.bytes('alpha') - before.bytes('alpha'), sizes[0], "the bytes of alpha's SKILL.md, under its name");
  assert.equal(after.bytes('_other') - before.bytes('_other'), sizes[1], "beta's bytes, under _other");
});

test('redact: sees every attribute before it is recorded; read series it makes the same are summed', async () => {
  const spans = new InMemorySpanExporter();
  const own = { tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }), reader: new Reader() };
  const seen = new Set<string>();
  const redacted = instrumentSkills({
    tracerProvider: own.tracerProvider,
    meterProvider: new MeterProvider({ readers: [own.reader] }),
    redact: (attributes) => {
      for (const name of Object.keys(attributes)) seen.add(name);
      const { 'mcp.resource.uri': _uri, 'gen_ai.skill.name': _skill, ...kept } = attributes;
      return kept;
    },
  });
  let collected: Awaited<ReturnType<Reader['collect']>>;
  try {
    for (const uri of ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md', 'skill://alpha/notes.md']) {
      assert.equal((await modern(http.url, 'resources/read', { uri })).status, 200);
    }
    collected = await own.reader.collect();
  } finally {
    redacted.close();
  }
  assert.ok(seen.has('mcp.resource.uri') && seen.has('gen_ai.skill.name'), [...seen].join(', '));
  const reads = spans.getFinishedSpans().filter((s) => s.attributes['mcp.method.name'] === 'resources/read');
  assert.equal(reads.length, 3);
  for (const span of reads) assert.ok(!('mcp.resource.uri' in span.attributes) && !('gen_ai.skill.name' in span.attributes), JSON.stringify(span.attributes));
  const all = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  const counter = (name: string) => (all.find((m) => m.descriptor.name === name) as SumMetricData).dataPoints;
  // Three reads of two skills, their names redacted: one series, the three reads and their bytes.
  assert.deepEqual(
    counter('skillmount.skill.reads').map((p) => [p.attributes, p.value]),
    [[{ 'mcp.protocol.version': '2026-07-28' }, 3]],
  );
  const bytes = Buffer.byteLength(FILES['alpha/SKILL.md']) + Buffer.byteLength(FILES['beta/SKILL.md']) + Buffer.byteLength(FILES['alpha/notes.md']);
  assert.deepEqual(
    counter('skillmount.skill.read.io').map((p) => p.value),
    [bytes],
  );
});

test('metric series stay bounded: 100 tenants of 10,000 skills each, every skill read once', async (t) => {
  // Only this test's own subscriber: the shared one would keep a million spans in memory.
  telemetry.close();
  t.after(() => {
    telemetry = instrumentSkills({ tracerProvider, meterProvider, maxSkills: 1 });
  });
  const own = new Reader();
  const bounded = instrumentSkills({ meterProvider: new MeterProvider({ readers: [own] }) });
  // The reads as skillmount publishes them on its public channel: a million distinct skill names.
  const channel = tracingChannel<unknown, SkillRequestMessage>(SKILLS_CHANNELS.request);
  let collected: Awaited<ReturnType<Reader['collect']>>;
  try {
    for (let tenant = 0; tenant < 100; tenant++) {
      for (let i = 0; i < 10_000; i++) {
        const uri = `skill://t${tenant}-skill-${i}/SKILL.md`;
        const message: SkillRequestMessage = {
          method: 'resources/read',
          era: '2026-07-28',
          requestId: i,
          meta: undefined,
          client: undefined,
          uri,
          ctx: { headers: {} },
        };
        channel.start.publish(message);
        message.skill = `t${tenant}-skill-${i}`;
        message.bytes = 100;
        channel.asyncEnd.publish(message);
      }
    }
    collected = await own.collect();
  } finally {
    bounded.close();
  }
  const all = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  const points = (name: string) =>
    (all.find((m) => m.descriptor.name === name) as { dataPoints: { attributes: Record<string, unknown>; value: unknown }[] }).dataPoints;
  const reads = points('skillmount.skill.reads');
  // The default maxSkills: the first 1000 names, and every later one as _other.
  assert.equal(reads.length, 1001);
  assert.equal(reads.filter((p) => p.attributes['gen_ai.skill.name'] === '_other').length, 1);
  assert.equal(
    reads.reduce((sum, p) => sum + (p.value as number), 0),
    1_000_000,
    'every read counted',
  );
  assert.equal(points('skillmount.skill.read.io').length, 1001);
  assert.equal(points('mcp.server.operation.duration').length, 1, 'one duration series: no skill, URI or tenant in it');
});

test('the Fastify plugin: its catalog load and a read, one span each', async () => {
  exporter.reset();
  const app = Fastify({ requestTimeout: 30_000 });
  await app.register(skillsPlugin, { storage: memoryStorage(FILES) });
  const fastify = await listenFastify(app);
  try {
    const { client, close } = await connectClient(fastify.url);
    await client.readResource({ uri: 'skill://beta/SKILL.md' });
    await close();
  } finally {
    await fastify.close();
  }
  assert.deepEqual(
    finished().map((s) => [s.name, s.attributes['mcp.method.name'], s.attributes['gen_ai.skill.name']]),
    [
      ['skillmount.catalog.load', undefined, undefined],
      ['resources/read', 'resources/read', 'beta'],
    ],
  );
});

test('tenants: a load span and its duration each, tenants held and evicted by reason, and no tenant key anywhere', async (t) => {
  exporter.reset();
  const seen: TenantCacheMessage[] = [];
  const listen = (message: unknown) => seen.push(message as TenantCacheMessage);
  subscribe(SKILLS_CHANNELS.tenants, listen);
  t.after(() => unsubscribe(SKILLS_CHANNELS.tenants, listen));
  const sums = async () => {
    const all = (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const sum = (name: string, by?: string) =>
      Object.fromEntries(
        ((all.find((m) => m.descriptor.name === name) as SumMetricData | undefined)?.dataPoints ?? []).map((p) => [by ? p.attributes[by] : '', p.value]),
      );
    const loads = all.find((m) => m.descriptor.name === 'skillmount.tenant.load.duration') as HistogramMetricData | undefined;
    return {
      cached: sum('skillmount.tenants.cached')[''] ?? 0,
      evicted: sum('skillmount.tenants.evicted', 'skillmount.tenant.eviction.reason'),
      loads: Object.fromEntries((loads?.dataPoints ?? []).map((p) => [String(p.attributes['error.type'] ?? 'ok'), p.value.count])),
    };
  };
  const before = await sums();
  const tenants = tenantCatalogs({
    key: (ctx) => ctx.tenant as string | undefined,
    max: 1,
    storage: (key) => {
      if (key === 'acme-broken') throw new Error('no storage for this tenant');
      return memoryStorage({ [`${key}/SKILL.md`]: skillMd(key, `Skills of ${key}.`) });
    },
    onWarning: () => {},
  });
  await tenants.sourceFor('acme-one');
  await tenants.sourceFor('acme-two'); // max 1: acme-one leaves for capacity
  await tenants.evict('acme-two');
  await assert.rejects(tenants.sourceFor('acme-broken'));
  await tenants.sourceFor('acme-one');
  await tenants.close();

  assert.deepEqual(
    seen.map((m) => [m.change, m.tenant, m.reason, m.cached]),
    [
      ['kept', 'acme-one', undefined, 1],
      ['kept', 'acme-two', undefined, 2],
      ['evicted', 'acme-one', 'capacity', 1],
      ['evicted', 'acme-two', 'evicted', 0],
      ['kept', 'acme-one', undefined, 1],
      ['evicted', 'acme-one', 'closed', 0],
    ],
  );
  const after = await sums();
  assert.equal(after.cached - before.cached, 0, 'every tenant kept has left');
  for (const [reason, count] of [
    ['capacity', 1],
    ['evicted', 1],
    ['closed', 1],
  ] as const) {
    assert.equal((after.evicted[reason] ?? 0) - (before.evicted[reason] ?? 0), count, reason);
  }
  assert.equal((after.loads.ok ?? 0) - (before.loads.ok ?? 0), 3, 'three loads that worked');
  assert.equal((after.loads['-32603'] ?? 0) - (before.loads['-32603'] ?? 0), 1, 'one that failed, with its JSON-RPC code');

  const spans = finished();
  const loads = spans.filter((s) => s.name === 'skillmount.tenant.load');
  assert.equal(loads.length, 4);
  assert.ok(loads.every((s) => s.kind === SpanKind.INTERNAL));
  assert.equal(loads.filter((s) => s.status.code === SpanStatusCode.ERROR).length, 1);
  const text = JSON.stringify(spans.map((s) => [s.name, s.attributes]));
  assert.doesNotMatch(text, /acme-/, 'no tenant key in a span name or attribute');
});

test('.well-known: the app’s own HTTP span gets http.route and the skill; no span of skillmount’s', async (t) => {
  exporter.reset();
  // What an app's HTTP instrumentation does: a SERVER span, active while the request is handled.
  const appTracer = tracerProvider.getTracer('the-app');
  const wellKnown = createWellKnownHandler({ source: catalog });
  const ended: Promise<void>[] = [];
  const site = await listenHttp(
    (req, res) =>
      appTracer.startActiveSpan(`${req.method} ${req.url}`, { kind: SpanKind.SERVER }, async (span) => {
        ended.push(new Promise((resolve) => res.once('close', () => resolve(span.end()))));
        if (!(await wellKnown(req, res))) res.writeHead(404).end();
      }),
    '',
  );
  t.after(site.close);
  const paths = ['index.json', 'beta/SKILL.md', 'alpha.zip', 'nobody/SKILL.md'];
  for (const p of paths) {
    const response = await fetch(`${site.url}/.well-known/agent-skills/${p}`);
    await response.arrayBuffer();
    assert.equal(response.status, p.startsWith('nobody') ? 404 : 200, p);
  }
  await Promise.all(ended);
  assert.deepEqual(
    finished().map((s) => [s.name, s.kind, s.attributes['http.route'], s.attributes['gen_ai.skill.name']]),
    [
      ['GET /.well-known/agent-skills/index.json', SpanKind.SERVER, '/.well-known/agent-skills/index.json', undefined],
      ['GET /.well-known/agent-skills/beta/SKILL.md', SpanKind.SERVER, '/.well-known/agent-skills/{name}/SKILL.md', 'beta'],
      ['GET /.well-known/agent-skills/alpha.zip', SpanKind.SERVER, '/.well-known/agent-skills/{name}.zip', 'alpha'],
      // A path that names nothing is not enriched: its route is not one of ours.
      ['GET /.well-known/agent-skills/nobody/SKILL.md', SpanKind.SERVER, undefined, undefined],
    ],
  );
});

test('storage: true: a span per storage call, the child of the request or build that made it, and their duration by kind and operation', async (t) => {
  telemetry.close();
  telemetry = instrumentSkills({ tracerProvider, meterProvider, maxSkills: 1, storage: true });
  t.after(() => {
    telemetry.close();
    telemetry = instrumentSkills({ tracerProvider, meterProvider, maxSkills: 1 });
  });
  assert.throws(() => instrumentSkills({ storage: 'yes' as never }), /option "storage" must be true or false, got string/);
  const uncached = await SkillCatalog.load(files, { cacheBytes: 0 });
  const direct = createSkillsEndpoint({ source: uncached });
  const site = await listenHttp((req, res) => direct.handle(req, res, undefined));
  try {
    exporter.reset();
    const { client, close } = await connectClient(site.url);
    await client.readResource({ uri: 'skill://alpha/notes.md' });
    await close();
    const spans = exporter.getFinishedSpans();
    const read = spans.find((s) => s.name === 'resources/read')!;
    assert.deepEqual(spans.filter((s) => s.name.startsWith('skillmount.storage.')).map(golden), [
      {
        name: 'skillmount.storage.read',
        kind: 'INTERNAL',
        attributes: { 'skillmount.storage.kind': 'memory', 'skillmount.storage.operation': 'read', 'skillmount.storage.path': 'alpha/notes.md' },
        parent: read.spanContext().spanId,
        links: 0,
        status: 'UNSET',
      },
    ]);

    exporter.reset();
    files.write('alpha/notes.md', '# Notes, again\n');
    await uncached.reload();
    const reload = exporter.getFinishedSpans().find((s) => s.name === 'skillmount.catalog.reload')!;
    const calls = exporter.getFinishedSpans().filter((s) => s.name.startsWith('skillmount.storage.'));
    assert.ok(calls.length > 0, 'the reload called the storage');
    for (const call of calls) assert.equal(call.parentSpanContext?.spanId, reload.spanContext().spanId, `${call.name} is a child of the reload`);
  } finally {
    files.write('alpha/notes.md', FILES['alpha/notes.md']); // as the other tests' catalog published it
    await direct.close();
    await site.close();
    uncached.close();
  }
  // A folder's first load lists in batches: each batch fetched is a call, a child of the load.
  const folder = await mkdtemp(path.join(tmpdir(), 'skillmount-otel-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  await mkdir(path.join(folder, 'alpha'));
  await writeFile(path.join(folder, 'alpha/SKILL.md'), FILES['alpha/SKILL.md']);
  exporter.reset();
  const onDisk = await SkillCatalog.load(fsStorage(folder));
  onDisk.close();
  const load = exporter.getFinishedSpans().find((s) => s.name === 'skillmount.catalog.load')!;
  const batches = exporter.getFinishedSpans().filter((s) => s.name === 'skillmount.storage.listAllBatches');
  assert.ok(
    batches.length > 0,
    exporter
      .getFinishedSpans()
      .map((s) => s.name)
      .join(', '),
  );
  for (const batch of batches) {
    assert.equal(batch.parentSpanContext?.spanId, load.spanContext().spanId);
    assert.deepEqual(batch.attributes, { 'skillmount.storage.kind': 'fs', 'skillmount.storage.operation': 'listAllBatches' });
  }
  const metric = (await reader.collect()).resourceMetrics.scopeMetrics
    .flatMap((m) => m.metrics)
    .find((m) => m.descriptor.name === 'skillmount.storage.operation.duration') as HistogramMetricData;
  const series = metric.dataPoints.map((p) => `${p.attributes['skillmount.storage.kind']} ${p.attributes['skillmount.storage.operation']}`);
  assert.ok(series.includes('memory read'), series.join(', '));
  assert.ok(
    metric.dataPoints.every((p) => !('skillmount.storage.path' in p.attributes)),
    'no path in the duration series',
  );
});
