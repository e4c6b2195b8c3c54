/**
 * OpenTelemetry for skillmount, as a subscriber of its diagnostics channels (./channels.ts): one
 * SERVER span per skills request, named and attributed by the MCP semantic conventions, and the
 * `mcp.server.operation.duration` histogram; one INTERNAL span and a duration per catalog load or
 * reload, and per tenant load; with `storage: true`, one per storage call; skill reads and their
 * bytes counted by skill, with the skill names bounded; tenants held in memory and evicted; the
 * route and skill of a `.well-known` answer on the app's own HTTP span. While skillmount works on
 * a trace, its span is the active one. `@opentelemetry/api` is an optional peer: only this entry
 * point imports it.
 *
 * What a client sends is untrusted: its trace context in `params._meta` is the span's parent, a
 * link, or ignored, by option; its `baggage` is never read unless asked; a malformed `traceparent`
 * is ignored by the propagator and never fails a request; a session id is hashed unless asked.
 */
import { createHash } from 'node:crypto';
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Counter,
  type Link,
  type Meter,
  type BatchObservableCallback,
  type ObservableCounter,
  type Tracer,
  type UpDownCounter,
  type MeterProvider,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import { OptionError } from '../option-error.js';
import { VERSION } from '../version.js';
import { installScope } from './scope.js';
import {
  catalogChannel,
  requestChannel,
  tenantCacheChannel,
  storageChannel,
  tenantChannel,
  wellKnownChannel,
  type CatalogBuildMessage,
  type StorageCallMessage,
  type SkillRequestMessage,
  type TenantCacheMessage,
  type TenantLoadMessage,
  type WellKnownAnswerMessage,
} from './channels.js';

/** The semantic conventions these spans and metrics follow (MCP's attributes are in the registry from 1.39.0). */
export const SCHEMA_URL = 'https://opentelemetry.io/schemas/1.39.0';

/** The convention's advised buckets for `mcp.server.operation.duration`, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Distinct skill names an attribute takes before the rest count as `_other`: a catalog may hold 10,000 skills per tenant. */
const DEFAULT_MAX_SKILLS = 1000;

export interface SkillsTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, as the OpenTelemetry SDK registers it). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /**
   * The client's trace context (`traceparent`, `tracestate` in `params._meta`), read with the
   * configured propagator: `'parent'` (default, as the MCP conventions say) makes it the span's
   * parent and links the ambient context (the app's HTTP span); `'link'` keeps the ambient
   * context as the parent and links the client's; `'ignore'` drops it.
   */
  traceContext?: 'parent' | 'link' | 'ignore';
  /** Read the client's `baggage` from `params._meta` along with its trace context. Default `false`: never. */
  baggage?: boolean;
  /** `mcp.session.id`: `'hash'` (default, SHA-256, 32 hex digits: a live session's key stays off the wire), `'raw'` or `'omit'`. */
  sessionId?: 'hash' | 'raw' | 'omit';
  /** Distinct skill names recorded in metric attributes; later ones count as `_other`. Default 1000. */
  maxSkills?: number;
  /** Sees every span's and data point's attributes before they are recorded, and returns the ones to keep. */
  redact?: (attributes: Attributes) => Attributes;
  /**
   * Record each call a catalog makes to its storage as a span and in `skillmount.storage.operation.duration`.
   * Default `false`: a read the byte cache does not answer would record two spans instead of one.
   */
  storage?: boolean;
}

/** What `instrumentSkills` returns: `close()` unsubscribes (spans in flight still end). */
export interface SkillsTelemetry {
  close(): void;
}

interface Open {
  span: Span;
  started: number;
  attributes: Attributes;
}

/**
 * Start recording skillmount's requests and catalog builds with OpenTelemetry. Call it once, after
 * the OpenTelemetry SDK is set up.
 *
 * @example
 * ```ts
 * import { instrumentSkills } from '@skillmount/core/telemetry';
 *
 * const telemetry = instrumentSkills({ traceContext: 'parent' });
 * // … on shutdown:
 * telemetry.close();
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when an option has the wrong type or value.
 */
export function instrumentSkills(options: SkillsTelemetryOptions = {}): SkillsTelemetry {
  const checked = checkOptions(options);
  const tracer = (checked.tracerProvider ?? trace.getTracerProvider()).getTracer('@skillmount/core', VERSION, { schemaUrl: SCHEMA_URL });
  const meter = (checked.meterProvider ?? metrics.getMeterProvider()).getMeter('@skillmount/core', VERSION, { schemaUrl: SCHEMA_URL });
  const redact = checked.redact ?? ((a: Attributes) => a);
  // The span each open trace began, by its message: its work runs with that span active (./scope.ts).
  const scopes = new WeakMap<object, Open>();
  const spans: Spans = { tracer, scopes, redact };
  const requests = requestRecorder(spans, meter, checked);
  const builds: Histogram = meter.createHistogram('skillmount.catalog.build.duration', {
    unit: 's',
    description: 'Duration of a catalog load or reload.',
  });
  const onCatalog = spanTraces<CatalogBuildMessage>(
    spans,
    (message) => ({ name: `skillmount.catalog.${message.kind}`, attributes: { 'skillmount.catalog.operation': message.kind } }),
    (message, o) => {
      const outcome = message.outcome;
      if (outcome) {
        o.span.setAttributes({
          'skillmount.catalog.skills': outcome.skills,
          'skillmount.catalog.bodies_read': outcome.bodiesRead,
          ...(outcome.added !== undefined ? { 'skillmount.catalog.added': outcome.added } : {}),
          ...(outcome.removed !== undefined ? { 'skillmount.catalog.removed': outcome.removed } : {}),
          ...(outcome.changed !== undefined ? { 'skillmount.catalog.changed': outcome.changed } : {}),
        });
      }
      builds.record((performance.now() - o.started) / 1000, { 'skillmount.catalog.operation': message.kind, ...pick(o.attributes, 'error.type') });
    },
  );
  const tenants = tenantRecorder(spans, meter);
  // `.well-known` requests are HTTP, not MCP: the app's HTTP span (active where the answer is
  // published) gets the route and the skill, rather than a span of our own.
  const onWellKnown = (message: unknown) => {
    const span = trace.getActiveSpan();
    if (!span?.isRecording()) return;
    const { route, skill } = message as WellKnownAnswerMessage;
    span.setAttributes(redact({ 'http.route': route, ...(skill !== undefined ? { 'gen_ai.skill.name': skill } : {}) }));
  };
  const subscriptions: [{ subscribe(s: never): void; unsubscribe(s: never): void }, unknown][] = [
    [requestChannel, requests],
    [catalogChannel, onCatalog],
    [tenantChannel, tenants.onLoad],
  ];
  if (checked.storage) subscriptions.push([storageChannel, storageRecorder(spans, meter)]);
  for (const [channel, subscriber] of subscriptions) channel.subscribe(subscriber as never);
  tenantCacheChannel.subscribe(tenants.onCache);
  wellKnownChannel.subscribe(onWellKnown);
  const removeScope = installScope((message, fn) => {
    const open = scopes.get(message);
    return open ? context.with(trace.setSpan(context.active(), open.span), fn) : fn();
  });
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      for (const [channel, subscriber] of subscriptions) channel.unsubscribe(subscriber as never);
      tenantCacheChannel.unsubscribe(tenants.onCache);
      wellKnownChannel.unsubscribe(onWellKnown);
      removeScope();
      requests.close();
    },
  };
}

/** What the recorders share: the tracer, the span each open trace began, and the redact hook. */
interface Spans {
  tracer: Tracer;
  scopes: WeakMap<object, Open>;
  redact: (attributes: Attributes) => Attributes;
}

/**
 * Skills requests as SERVER spans by the MCP conventions, `mcp.server.operation.duration`, and
 * skill reads and their bytes by skill (the names bounded).
 */
function requestRecorder(spans: Spans, meter: Meter, checked: ReturnType<typeof checkOptions>) {
  const { tracer, scopes, redact } = spans;
  const duration: Histogram = meter.createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description: 'MCP request duration as observed on the receiver, from the time it was received until the result is sent.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const reads = new ReadTotals(meter, redact);
  const skills = new BoundedNames(checked.maxSkills);
  const open = scopes as WeakMap<SkillRequestMessage, Open>;
  return {
    start(message: SkillRequestMessage) {
      const attributes = redact(requestAttributes(message, checked.sessionId));
      const { parent, links } = parentOf(message, checked.traceContext, checked.baggage);
      const span = tracer.startSpan(message.method, { kind: SpanKind.SERVER, attributes, links }, parent);
      open.set(message, { span, started: performance.now(), attributes });
    },
    end() {},
    asyncStart() {},
    error(message: SkillRequestMessage) {
      const o = open.get(message);
      if (o) failed(o, message.error, redact);
    },
    asyncEnd(message: SkillRequestMessage) {
      const o = open.get(message);
      if (!o) return;
      open.delete(message);
      if (message.skill !== undefined) o.span.setAttributes(redact({ 'gen_ai.skill.name': message.skill }));
      o.span.end();
      duration.record((performance.now() - o.started) / 1000, metricAttributes(o.attributes));
      if (message.method === 'resources/read' && message.error === undefined && message.skill !== undefined) {
        reads.add(skills.of(message.skill), o.attributes['mcp.protocol.version'] as string, message.bytes ?? 0);
      }
    },
    close: () => reads.close(),
  };
}

/** One series of the read counters: its attributes, redacted once, and its totals so far. */
interface ReadTotal {
  attributes: Attributes;
  reads: number;
  bytes: number;
}

/**
 * `skillmount.skill.reads` and `skillmount.skill.read.io`: summed here, by skill and protocol
 * version, and read by the SDK when it collects. A read then costs a map lookup, not a data point
 * (which the SDK keys, on every record, by sorting and serialising its attributes).
 */
class ReadTotals {
  /** By skill and version; several share one total when `redact` makes their attributes the same. */
  readonly #series = new Map<string, ReadTotal>();
  readonly #byAttributes = new Map<string, ReadTotal>();
  readonly #redact: (attributes: Attributes) => Attributes;
  readonly #close: () => void;

  constructor(meter: Meter, redact: (attributes: Attributes) => Attributes) {
    this.#redact = redact;
    const reads: ObservableCounter = meter.createObservableCounter('skillmount.skill.reads', {
      unit: '{read}',
      description: 'Skill files answered by resources/read, by skill.',
    });
    const bytes: ObservableCounter = meter.createObservableCounter('skillmount.skill.read.io', {
      unit: 'By',
      description: 'Bytes of the skill files answered by resources/read, by skill.',
    });
    const observe: BatchObservableCallback = (result) => {
      for (const total of this.#byAttributes.values()) {
        result.observe(reads, total.reads, total.attributes);
        result.observe(bytes, total.bytes, total.attributes);
      }
    };
    meter.addBatchObservableCallback(observe, [reads, bytes]);
    this.#close = () => meter.removeBatchObservableCallback(observe, [reads, bytes]);
  }

  add(skill: string, version: string, bytes: number): void {
    const key = `${version}\n${skill}`;
    let total = this.#series.get(key);
    if (!total) {
      const attributes = this.#redact({ 'gen_ai.skill.name': skill, 'mcp.protocol.version': version });
      const same = JSON.stringify(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : 1)));
      total = this.#byAttributes.get(same) ?? { attributes, reads: 0, bytes: 0 };
      this.#byAttributes.set(same, total);
      this.#series.set(key, total);
    }
    total.reads++;
    total.bytes += bytes;
  }

  close(): void {
    this.#close();
  }
}

/**
 * Each call a catalog makes to its storage as a span (CLIENT for a storage across the network,
 * INTERNAL for a folder or memory), a child of the request or build that made it, and
 * `skillmount.storage.operation.duration` by storage kind and operation.
 */
function storageRecorder(spans: Spans, meter: Meter) {
  const calls: Histogram = meter.createHistogram('skillmount.storage.operation.duration', { unit: 's', description: 'Duration of a call to a storage.' });
  const kinds = (message: StorageCallMessage) => ({ 'skillmount.storage.kind': message.storage, 'skillmount.storage.operation': message.operation });
  return spanTraces<StorageCallMessage>(
    spans,
    (message) => ({
      name: `skillmount.storage.${message.operation}`,
      kind: message.storage === 's3' || message.storage === 'postgres' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      attributes: spans.redact({ ...kinds(message), ...(message.path !== '' ? { 'skillmount.storage.path': message.path } : {}) }),
    }),
    (message, o) => calls.record((performance.now() - o.started) / 1000, { ...kinds(message), ...pick(o.attributes, 'error.type') }),
  );
}

/**
 * Tenant loads as INTERNAL spans and a duration, and the tenants held in memory and evicted. The
 * tenant's key is in none of them: keys are unbounded, and may be customers' names.
 */
function tenantRecorder(spans: Spans, meter: Meter) {
  const loads: Histogram = meter.createHistogram('skillmount.tenant.load.duration', { unit: 's', description: 'Duration of a tenant load.' });
  const cached: UpDownCounter = meter.createUpDownCounter('skillmount.tenants.cached', { unit: '{tenant}', description: 'Tenants held in memory.' });
  const evicted: Counter = meter.createCounter('skillmount.tenants.evicted', { unit: '{tenant}', description: 'Tenants that left memory, by reason.' });
  const onLoad = spanTraces<TenantLoadMessage>(
    spans,
    () => ({ name: 'skillmount.tenant.load', attributes: {} }),
    (_message, o) => loads.record((performance.now() - o.started) / 1000, pick(o.attributes, 'error.type')),
  );
  const onCache = (message: unknown) => {
    const { change, reason } = message as TenantCacheMessage;
    if (change === 'kept') return cached.add(1);
    cached.add(-1);
    evicted.add(1, { 'skillmount.tenant.eviction.reason': reason ?? 'evicted' });
  };
  return { onLoad, onCache };
}

/**
 * Subscribers for a tracing channel whose traces are spans (INTERNAL unless `begin` says): `begin`
 * names the span and gives its kind and attributes, the span is the scope of the trace's work, an
 * error marks it failed, and `finish` records what the trace ended with just before the span ends.
 */
function spanTraces<M extends { error?: unknown }>(
  spans: Spans,
  begin: (message: M) => { name: string; kind?: SpanKind; attributes: Attributes },
  finish: (message: M, o: Open) => void,
) {
  const open = spans.scopes as WeakMap<M, Open>;
  return {
    start(message: M) {
      const { name, kind = SpanKind.INTERNAL, attributes } = begin(message);
      const span = spans.tracer.startSpan(name, { kind, attributes });
      open.set(message, { span, started: performance.now(), attributes: {} });
    },
    end() {},
    asyncStart() {},
    error(message: M) {
      const o = open.get(message);
      if (o) failed(o, message.error, (a) => a);
    },
    asyncEnd(message: M) {
      const o = open.get(message);
      if (!o) return;
      open.delete(message);
      finish(message, o);
      o.span.end();
    },
  };
}

/** The span's attributes at start, by the MCP conventions. */
function requestAttributes(message: SkillRequestMessage, sessionId: 'hash' | 'raw' | 'omit'): Attributes {
  const header = message.ctx.headers['mcp-protocol-version'];
  const attributes: Attributes = {
    'mcp.method.name': message.method,
    'mcp.protocol.version': typeof header === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(header) ? header : message.era,
    'network.protocol.name': 'http',
    'network.transport': 'tcp',
  };
  if (message.requestId !== undefined && message.requestId !== null) attributes['jsonrpc.request.id'] = String(message.requestId);
  if (message.uri !== undefined) attributes['mcp.resource.uri'] = message.uri;
  const session = message.ctx.sessionId;
  if (typeof session === 'string' && sessionId !== 'omit') attributes['mcp.session.id'] = sessionId === 'raw' ? session : hashed(session);
  return attributes;
}

/** The attributes of `mcp.server.operation.duration`: the low-cardinality ones of the span. */
function metricAttributes(span: Attributes): Attributes {
  return pick(span, 'mcp.method.name', 'mcp.protocol.version', 'error.type', 'rpc.response.status_code', 'network.transport');
}

/** The span's parent context and links, from the ambient context and the client's `_meta`. */
function parentOf(message: SkillRequestMessage, mode: 'parent' | 'link' | 'ignore', baggage: boolean): { parent: Context; links: Link[] } {
  const ambient = context.active();
  const meta = message.meta;
  if (mode === 'ignore' || !meta || typeof meta.traceparent !== 'string') return { parent: ambient, links: [] };
  const carrier: Record<string, string> = { traceparent: meta.traceparent };
  if (typeof meta.tracestate === 'string') carrier.tracestate = meta.tracestate;
  if (baggage && typeof meta.baggage === 'string') carrier.baggage = meta.baggage;
  // A malformed traceparent extracts to no span context: then the client's is ignored.
  const remote = propagation.extract(ROOT_CONTEXT, carrier);
  const remoteSpan = trace.getSpanContext(remote);
  if (!remoteSpan || !trace.isSpanContextValid(remoteSpan)) return { parent: ambient, links: [] };
  const ambientSpan = trace.getSpanContext(ambient);
  if (mode === 'link') return { parent: ambient, links: [{ context: remoteSpan }] };
  return { parent: remote, links: ambientSpan && trace.isSpanContextValid(ambientSpan) ? [{ context: ambientSpan }] : [] };
}

/** Mark an open span failed: `error.type` (and the JSON-RPC code as `rpc.response.status_code`), status ERROR with the message. */
function failed(o: Open, error: unknown, redact: (attributes: Attributes) => Attributes): void {
  const { type, text } = errorOf(error);
  const added = redact({ 'error.type': type, ...(/^-?\d+$/.test(type) ? { 'rpc.response.status_code': type } : {}) });
  o.span.setAttributes(added);
  Object.assign(o.attributes, added);
  o.span.setStatus({ code: SpanStatusCode.ERROR, message: text });
}

/** `error.type` and the status text of a failed request: the JSON-RPC code when there is one. */
function errorOf(error: unknown): { type: string; text: string } {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && Number.isInteger(code)) return { type: String(code), text };
  return { type: error instanceof Error ? error.name : '_OTHER', text };
}

function hashed(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

function pick(attributes: Attributes, ...names: string[]): Attributes {
  const picked: Attributes = {};
  for (const name of names) if (attributes[name] !== undefined) picked[name] = attributes[name];
  return picked;
}

/** Skill names as metric attribute values: the first `max` distinct ones as themselves, the rest as `_other`. */
class BoundedNames {
  readonly #max: number;
  readonly #seen = new Set<string>();

  constructor(max: number) {
    this.#max = max;
  }

  of(name: string): string {
    if (this.#seen.has(name)) return name;
    if (this.#seen.size >= this.#max) return '_other';
    this.#seen.add(name);
    return name;
  }
}

function checkOptions(
  options: SkillsTelemetryOptions,
): Required<Omit<SkillsTelemetryOptions, 'tracerProvider' | 'meterProvider' | 'redact'>> &
  Pick<SkillsTelemetryOptions, 'tracerProvider' | 'meterProvider' | 'redact'> {
  const fail = (option: string, detail: string): never => {
    throw new OptionError('invalid-value', option, detail, '@skillmount/core/telemetry');
  };
  const { traceContext = 'parent', baggage = false, sessionId = 'hash', maxSkills = DEFAULT_MAX_SKILLS, redact, storage = false } = options;
  if (!['parent', 'link', 'ignore'].includes(traceContext)) fail('traceContext', `must be 'parent', 'link' or 'ignore', got ${JSON.stringify(traceContext)}`);
  if (typeof baggage !== 'boolean') fail('baggage', `must be true or false, got ${typeof baggage}`);
  if (!['hash', 'raw', 'omit'].includes(sessionId)) fail('sessionId', `must be 'hash', 'raw' or 'omit', got ${JSON.stringify(sessionId)}`);
  if (!Number.isSafeInteger(maxSkills) || maxSkills < 0) fail('maxSkills', `must be a whole number from 0, got ${String(maxSkills)}`);
  if (redact !== undefined && typeof redact !== 'function') fail('redact', `must be a function (attributes) => attributes, got ${typeof redact}`);
  if (typeof storage !== 'boolean') fail('storage', `must be true or false, got ${typeof storage}`);
  return { ...options, traceContext, baggage, sessionId, maxSkills, storage };
}
