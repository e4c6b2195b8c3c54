// One server of the telemetry cost bench (bench/telemetry/run.ts), in its own process so its CPU
// is its own, serving 50 skills. Its kind, the first argument:
// - endpoint: the skills endpoint alone on node:http (createSkillsEndpoint), the lightest read;
// - fastify: a Fastify app with the skills plugin and its own McpServer (a tool beside the skills),
//   as the plugin's README sets one up.
// Its mode, the second:
// - none: no OpenTelemetry;
// - api: instrumentSkills() through the API alone (no SDK: spans are no-ops);
// - sdk: an SDK recording every span (always-on sampler, batch processor, an exporter that drops
//   what it gets) and a metric reader, and instrumentSkills();
// - sdk-only: the same SDK set up, instrumentSkills() not called (what the SDK costs by itself);
// - sdk-traces: the SDK's tracer only, no meter provider (what the metrics cost, by difference);
// - sdk-bare: the same SDK, instrumentSkills() not called, and a bare span per request from a
//   subscriber of its own (no attributes, no context, no metrics): what any instrumentation pays;
// - sdk-span: sdk-bare with no span processor: the span by itself, before anything keeps it.
// Sends its URL once it listens, answers "cpu" with its CPU time so far and exits on "stop", as
// bench/http/servers.ts's forkServer expects.
import { tracingChannel } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createSkillsEndpoint, memoryStorage, SkillCatalog } from '@skillmount/core';

const [kind, mode] = process.argv.slice(2);
if (mode !== 'none') {
  const { instrumentSkills } = await import('@skillmount/core/telemetry');
  if (mode !== 'api') {
    const { context, propagation, trace, metrics } = await import('@opentelemetry/api');
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
    const { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const { MeterProvider, MetricReader } = await import('@opentelemetry/sdk-metrics');
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const dropping = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: mode === 'sdk-span' ? [] : [new BatchSpanProcessor(dropping)] }));
    class Reader extends MetricReader {
      async onForceFlush() {}
      async onShutdown() {}
    }
    if (mode !== 'sdk-traces') metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Reader()] }));
    // The context manager is enabled before any request, as an app's HTTP instrumentation would.
    context.with(context.active(), () => {});
    if (mode === 'sdk-bare' || mode === 'sdk-span') bareSpans(trace.getTracer('bare'));
  }
  if (mode === 'api' || mode === 'sdk' || mode === 'sdk-traces') instrumentSkills();
}

/** A span per skills request, started and ended, and nothing else: no attributes, context or metrics. */
function bareSpans(tracer) {
  const open = new WeakMap();
  tracingChannel('skillmount:request').subscribe({
    start: (message) => open.set(message, tracer.startSpan(message.method)),
    end() {},
    asyncStart() {},
    error() {},
    asyncEnd: (message) => open.get(message)?.end(),
  });
}

const files = {};
for (let i = 0; i < 50; i++) {
  files[`skill-${i}/SKILL.md`] = `---\nname: skill-${i}\ndescription: Skill number ${i}.\n---\n\n${'Instructions. '.repeat(280)}\n`;
}
const catalog = await SkillCatalog.load(memoryStorage(files));
const server = kind === 'fastify' ? await fastifyServer(catalog) : await endpointServer(catalog);
process.send({ url: `http://127.0.0.1:${server.address().port}/mcp` });

async function endpointServer(source) {
  const endpoint = createSkillsEndpoint({ source });
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => void endpoint.handle(req, res, undefined));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

async function fastifyServer(source) {
  const { default: Fastify } = await import('fastify');
  const { skillsPlugin } = await import('@skillmount/fastify');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const app = Fastify({ keepAliveTimeout: 60_000, requestTimeout: 30_000 });
  await app.register(skillsPlugin, {
    source,
    server: () => {
      const server = new McpServer({ name: 'bench-app', version: '1.0.0' });
      server.registerTool('ping', { description: 'Answers pong.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server;
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
}
process.on('message', (message) => {
  if (message === 'cpu') {
    process.send({ cpu: process.cpuUsage() });
  } else if (message === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
