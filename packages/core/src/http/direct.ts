/**
 * Protocol 2025-11-25 skills requests answered from the source, with no SDK server or transport
 * per request: `skills/list`, `skills/get`, `resources/directory/read` and `resources/read` of the
 * source's own URIs, through the same handlers, errors and SSE framing as the attached server
 * would use. The 2026-07-28 path answers the same methods the same way.
 *
 * Only a request that is exactly such a call is taken. Anything else (another method, an unusual
 * header, an extra field, a URI the SDK would respell) goes to the SDK's transport as before, so
 * every refusal and every other method keep the SDK's own behaviour.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { contextFromExtra } from '../context/store.js';
import { resolvesToItself } from '../uri/resolved.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';
import type { SkillHandlers } from '../server/handlers.js';
import { optionalCursor, requiredUri } from '../server/params.js';
import type { SkillClientInfo, SkillContext, SkillWarning } from '../types.js';
import { setOrigin } from '../context/origin.js';
import { isJsonContentType } from './body.js';
import { clientSafe } from '../sdk/internal-errors.js';

type Result = Record<string, unknown>;

/** One request this module answers. */
export interface DirectCall {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

export interface DirectAnswersOptions {
  /** The endpoint's skills service, which answers every call. */
  service: SkillHandlers;
  /** Whether the source reads folders (`resources/directory/read` is served). */
  directoryRead: boolean;
  warn: (warning: SkillWarning) => void;
  /**
   * Runs one answer's work under the endpoint's bound on response bytes in flight (`subject`: a
   * URI or the method); `size` measures what the work produced.
   */
  count(subject: string, work: () => Promise<string>, size: (answer: string) => number): Promise<string>;
}

/** The params each method may carry besides `_meta`; any other field sends the request to the SDK. */
const PARAMS: ReadonlyMap<string, readonly string[]> = new Map([
  [METHOD_SKILLS_LIST, ['cursor']],
  [METHOD_SKILLS_GET, ['uri']],
  [METHOD_DIRECTORY_READ, ['uri', 'cursor']],
  ['resources/read', ['uri']],
]);

/** `requiredUri`'s bound: a longer URI is refused by the attached handlers, so the SDK path answers it. */
const MAX_URI = 8192;

/** The headers the SDK's transport sends with a POST's event stream. */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export class DirectAnswers {
  readonly #handlers: SkillHandlers;
  readonly #directoryRead: boolean;
  readonly #warn: (warning: SkillWarning) => void;
  readonly #count: DirectAnswersOptions['count'];
  /** Requests being answered in each session, so a `notifications/cancelled` there can stop one. */
  readonly #running = new Map<string, Map<string | number, AbortController>>();

  constructor(options: DirectAnswersOptions) {
    this.#handlers = options.service;
    this.#directoryRead = options.directoryRead;
    this.#warn = options.warn;
    this.#count = options.count;
  }

  /** The call, when this POST is exactly a skills request the SDK's transport would take; else undefined. */
  match(req: IncomingMessage, body: unknown): DirectCall | undefined {
    if (req.method !== 'POST' || !takenAsJson(req) || !acceptsBoth(req.headers.accept)) return undefined;
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !(typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
    if (!isPlainObject(body)) return undefined;
    const { jsonrpc, id, method, params = {} } = body;
    if (jsonrpc !== '2.0' || typeof method !== 'string' || !isRequestId(id) || !isPlainObject(params)) return undefined;
    if (!Object.keys(body).every((key) => key === 'jsonrpc' || key === 'id' || key === 'method' || key === 'params')) return undefined;
    const allowed = PARAMS.get(method);
    if (!allowed || (method === METHOD_DIRECTORY_READ && !this.#directoryRead)) return undefined;
    if (!Object.keys(params).every((key) => key === '_meta' || allowed.includes(key))) return undefined;
    // The SDK's transport refuses a `_meta` its schema does not take (a progressToken of {} or 1.5) with 400.
    if (params._meta !== undefined && !(isPlainObject(params._meta) && JSONRPCMessageSchema.safeParse(body).success)) return undefined;
    if (method === 'resources/read' && !this.#isPlainSkillUri(params.uri)) return undefined;
    return { id, method, params };
  }

  /**
   * Whether a `resources/read` of `uri` is the source's and the attached McpServer would answer it
   * without a word of its own: other URIs are the app's, and McpServer refuses a malformed URI, or
   * one it resolves to another spelling (dot segments, an empty userinfo), before the skills do.
   */
  #isPlainSkillUri(uri: unknown): boolean {
    if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI || !this.#handlers.serves(uri)) return false;
    return resolvesToItself(uri);
  }

  /**
   * Stop the request a session's `notifications/cancelled` names, if this module is answering it
   * (its source call sees `ctx.signal` abort, and no answer is sent, as the SDK does). The
   * notification still goes on to the session's transport, which answers it.
   */
  cancel(sessionId: string, body: unknown): void {
    if (!isPlainObject(body) || body.method !== 'notifications/cancelled' || !isPlainObject(body.params)) return;
    const requestId = body.params.requestId;
    if (isRequestId(requestId)) this.#running.get(sessionId)?.get(requestId)?.abort();
  }

  /** Answer `call` on `res` as the SDK would: one `message` event; the session's id when there is one, and its client. */
  async answer(call: DirectCall, req: IncomingMessage & { auth?: unknown }, res: ServerResponse, sessionId?: string, client?: SkillClientInfo): Promise<void> {
    const aborted = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) aborted.abort();
    };
    res.on('close', onClose);
    const untrack = sessionId === undefined ? undefined : this.#track(sessionId, call.id, aborted);
    const ctx = setOrigin(contextFromExtra({ authInfo: req.auth, requestInfo: { headers: req.headers }, signal: aborted.signal, sessionId }), {
      era: '2025-11-25',
      client,
      request: { method: call.method, id: call.id, meta: call.params._meta as Record<string, unknown> | undefined },
    });
    let event: string | undefined;
    try {
      // Serialised inside the count, so the budget measures the very bytes that are sent.
      const answer = async () => sseEvent({ result: await this.#result(call, ctx), jsonrpc: '2.0', id: call.id });
      event = await this.#count(subjectOf(call), answer, (text) => text.length);
    } catch (error) {
      // A request stopped by its client failed because it was stopped: nothing to report or answer.
      if (!aborted.signal.aborted) {
        const safe = clientSafe(error, call.method, this.#warn) as { code: number; message: string; data?: unknown };
        const data = safe.data !== undefined ? { data: safe.data } : {};
        event = sseEvent({ jsonrpc: '2.0', id: call.id, error: { code: safe.code, message: safe.message, ...data } });
      }
    } finally {
      res.off('close', onClose);
      untrack?.();
    }
    if (res.destroyed) return;
    const sessionHeader = sessionId !== undefined ? { 'mcp-session-id': sessionId } : {};
    if (aborted.signal.aborted || event === undefined) {
      res.writeHead(200, { ...STREAM_HEADERS, ...sessionHeader }).end();
      return;
    }
    // The whole stream is this one event, so its length is known: no chunked framing.
    const headers = { ...STREAM_HEADERS, 'content-length': Buffer.byteLength(event), ...sessionHeader };
    res.writeHead(200, headers).end(event);
  }

  /** Remember `controller` as the one for `id` in the session until the returned function is called. */
  #track(sessionId: string, id: string | number, controller: AbortController): () => void {
    let running = this.#running.get(sessionId);
    if (!running) {
      running = new Map();
      this.#running.set(sessionId, running);
    }
    // A client reusing an id in flight: the later request is the one a cancel names.
    running.set(id, controller);
    const inSession = running;
    return () => {
      if (inSession.get(id) === controller) inSession.delete(id);
      if (inSession.size === 0 && this.#running.get(sessionId) === inSession) this.#running.delete(sessionId);
    };
  }

  /** The result, with the attached handlers' own checks of the params (and so their errors). */
  async #result({ method, params }: DirectCall, ctx: SkillContext): Promise<Result> {
    const handlers = this.#handlers;
    switch (method) {
      case METHOD_SKILLS_LIST:
        return (await handlers.list(optionalCursor(params, method), ctx)) as Result;
      case METHOD_SKILLS_GET:
        return (await handlers.get(requiredUri(params, method, "the skill's SKILL.md URI"), ctx)) as Result;
      case METHOD_DIRECTORY_READ: {
        const uri = requiredUri(params, method, 'a directory URI without a trailing slash');
        return (await handlers.readDirectory(uri, optionalCursor(params, method), ctx)) as Result;
      }
      default:
        return (await handlers.read(params.uri as string, ctx, 'resources/read', params._meta)) as Result;
    }
  }
}

/** The whole answer stream of one message, as the SDK's transport writes it. */
function sseEvent(message: Result): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** What a budget refusal names: a read's URI, else the method. */
function subjectOf({ method, params }: DirectCall): string {
  return method === 'resources/read' ? (params.uri as string) : method;
}

/**
 * A JSON content type every supported SDK release takes: older ones (1.29) want the lower-case
 * text "application/json" in it and refuse `Application/JSON` (415), which the endpoint accepts.
 */
function takenAsJson(req: IncomingMessage): boolean {
  return isJsonContentType(req) && String(req.headers['content-type']).includes('application/json');
}

/** The SDK's transport refuses a POST whose Accept header does not name both types (406). */
function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
