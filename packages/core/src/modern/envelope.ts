/**
 * Era detection and the checks of a 2026-07-28 request's envelope: its `_meta` fields and the
 * HTTP headers that mirror the body.
 */
import type { IncomingMessage } from 'node:http';
import { ClientCapabilitiesSchema, ImplementationSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  HEADER_MISMATCH,
  INVALID_REQUEST,
  LEGACY_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  METHOD_DISCOVER,
  MODERN_VERSION,
  ModernError,
  SUPPORTED_VERSIONS,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './protocol.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

const BAD_REQUEST = 400;
const INVALID_PARAMS = JsonRpcErrorCode.InvalidParams;

export type RequestId = string | number;

/** A checked modern request: what every handler needs from it. */
export interface ModernRequest {
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string; [key: string]: unknown };
  /** The lowest log level the client asked for in `_meta`, if any. */
  logLevel?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const metaOf = (message: unknown): Json | undefined => {
  if (!isObject(message) || !isObject(message.params)) return undefined;
  const meta = message.params._meta;
  return isObject(meta) ? meta : undefined;
};

/**
 * Whether a request speaks 2026-07-28: an `MCP-Protocol-Version` header no legacy client sends, a
 * protocol version in `params._meta`, or `server/discover`. Everything else keeps the legacy path.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { isModernRequest } from '@skillmount/core';
 *
 * http.createServer((req, res) => {
 *   const era = isModernRequest(req, undefined) ? '2026-07-28' : '2025-11-25';
 *   res.end(era);
 * });
 * ```
 * @throws Nothing.
 */
export function isModernRequest(req: IncomingMessage, body: unknown): boolean {
  const header = req.headers['mcp-protocol-version'];
  if (typeof header === 'string' && !LEGACY_VERSIONS.has(header.trim())) return true;
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => isObject(m) && (m.method === METHOD_DISCOVER || metaOf(m)?.[META_PROTOCOL_VERSION] !== undefined));
}

/** A notification (no `id`): it needs no answer beyond 202. */
export function isNotification(body: unknown): boolean {
  return isObject(body) && typeof body.method === 'string' && !('id' in body);
}

/**
 * Check a modern request, in the order the spec's servers do: shape, `_meta`, header against
 * body, version, then the headers every request must carry. Throws a `ModernError`.
 */
export function checkModernRequest(req: IncomingMessage, body: unknown): ModernRequest {
  if (Array.isArray(body)) {
    throw new ModernError(BAD_REQUEST, INVALID_REQUEST, 'Invalid Request: protocol 2026-07-28 has no JSON-RPC batches; send one request per HTTP POST');
  }
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    throw new ModernError(BAD_REQUEST, INVALID_REQUEST, 'Invalid Request: the body must be one JSON-RPC 2.0 request object with a string "method"');
  }
  const id = body.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
    throw new ModernError(BAD_REQUEST, INVALID_REQUEST, 'Invalid Request: "id" must be a string or a number (null is not allowed)');
  }
  const method = body.method;
  if (body.params !== undefined && !isObject(body.params)) {
    throw new ModernError(BAD_REQUEST, INVALID_PARAMS, `Invalid params for ${method.slice(0, 100)}: params must be an object`);
  }
  const params = (body.params ?? {}) as Json;
  const meta = params._meta;
  if (!isObject(meta)) {
    throw new ModernError(
      BAD_REQUEST,
      INVALID_PARAMS,
      'Invalid _meta envelope for protocol revision 2026-07-28: params._meta is missing; ' +
        'every request carries its protocol version and client capabilities there',
      { envelope: { missing: ['_meta'] } },
    );
  }
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== 'string') throw envelopeProblem(META_PROTOCOL_VERSION, version === undefined ? 'missing' : 'not a string');
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(capabilities)) throw envelopeProblem(META_CLIENT_CAPABILITIES, capabilities === undefined ? 'missing' : 'not an object');
  // The app's handlers receive these through an initialize, whose schema would refuse them later as an internal error.
  const badCapability = schemaProblem(ClientCapabilitiesSchema, capabilities);
  if (badCapability) throw envelopeProblem(META_CLIENT_CAPABILITIES, badCapability);
  const clientInfo = meta[META_CLIENT_INFO];
  if (clientInfo !== undefined && !(isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string')) {
    throw envelopeProblem(META_CLIENT_INFO, 'not an object with string name and version');
  }
  const badInfo = clientInfo === undefined ? undefined : schemaProblem(ImplementationSchema, clientInfo);
  if (badInfo) throw envelopeProblem(META_CLIENT_INFO, badInfo);
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && typeof logLevel !== 'string') throw envelopeProblem(META_LOG_LEVEL, 'not a string');
  // The app's handlers get the request through the SDK, which drops one whose _meta its schema refuses
  // (a progressToken of null or 1.5) without an answer: refused here, the same on every path.
  const badMeta = metaProblem(method, params);
  if (badMeta) throw envelopeProblem(badMeta.key, badMeta.problem);

  const headerVersion = header(req, 'mcp-protocol-version');
  if (headerVersion !== undefined && headerVersion !== version) throw mismatch('MCP-Protocol-Version', headerVersion, version);
  const headerMethod = header(req, 'mcp-method');
  if (headerMethod !== undefined && headerMethod !== method) throw mismatch('Mcp-Method', headerMethod, method);
  if (method === 'initialize') {
    throw new ModernError(
      BAD_REQUEST,
      HEADER_MISMATCH,
      'Bad Request: initialize belongs to protocol 2025-11-25; ' + 'send it without the 2026-07-28 envelope, or call server/discover',
      {
        mismatch: { header: headerVersion ?? '(missing)', body: 'initialize' },
      },
    );
  }
  if (version !== MODERN_VERSION) {
    throw new ModernError(BAD_REQUEST, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${version.slice(0, 64)}`, {
      supported: [...SUPPORTED_VERSIONS],
      requested: version.slice(0, 64),
    });
  }
  if (headerVersion === undefined) throw missingHeader('MCP-Protocol-Version', version);
  if (headerMethod === undefined) throw missingHeader('Mcp-Method', method);
  const named = nameOf(method, params);
  if (named !== undefined) {
    const headerName = header(req, 'mcp-name');
    if (headerName === undefined) throw missingHeader('Mcp-Name', named);
    if (headerName !== named) throw mismatch('Mcp-Name', headerName, named);
  }
  return {
    id,
    method,
    params,
    clientCapabilities: capabilities,
    ...(clientInfo !== undefined ? { clientInfo: clientInfo as ModernRequest['clientInfo'] } : {}),
    ...(typeof logLevel === 'string' ? { logLevel } : {}),
  };
}

/** What `Mcp-Name` must repeat: the tool or prompt name, or the resource URI. */
function nameOf(method: string, params: Json): string | undefined {
  if (method === 'tools/call' || method === 'prompts/get') return typeof params.name === 'string' ? params.name : undefined;
  if (method === 'resources/read') return typeof params.uri === 'string' ? params.uri : undefined;
  return undefined;
}

/** A header's value, with the `=?base64?…?=` form clients use for non-ASCII values decoded; undefined when absent. */
function header(req: IncomingMessage, name: string): string | undefined {
  const raw = req.headers[name];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value === undefined) return undefined;
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/i.exec(value);
  if (!encoded) return value;
  const bytes = Buffer.from(encoded[1]!, 'base64');
  // A sentinel whose payload is not canonical base64 of UTF-8 cannot agree with any body value.
  if (bytes.toString('base64') !== encoded[1]) return `(undecodable ${name})`;
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** The first thing `schema` refuses in `value` ("roots.listChanged: expected boolean"), or undefined. */
function schemaProblem(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error?.issues[0];
  return issue ? `${issue.path.map(String).join('.') || '(value)'}: ${issue.message.slice(0, 120)}` : 'not valid';
}

/** The `_meta` member the SDK's request schema refuses in `params` (`progressToken`), and why; undefined when it takes them. */
function metaProblem(method: string, params: Json): { key: string; problem: string } | undefined {
  const parsed = JSONRPCRequestSchema.safeParse({ jsonrpc: '2.0', id: 0, method, params });
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  // Only _meta can fail here (params is an object, method a string); its key is the third step of the path.
  const key = issue ? String(issue.path[2] ?? '_meta') : '_meta';
  if (key === 'progressToken') return { key, problem: 'not a string or an integer' };
  return { key, problem: issue ? issue.message.slice(0, 120) : 'not valid' };
}

function envelopeProblem(key: string, problem: string): ModernError {
  return new ModernError(BAD_REQUEST, INVALID_PARAMS, `Invalid _meta envelope for protocol revision 2026-07-28: ${key}: ${problem}`, {
    envelope: { key, problem },
  });
}

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function mismatch(name: string, headerValue: string, bodyValue: string): ModernError {
  return new ModernError(
    BAD_REQUEST,
    HEADER_MISMATCH,
    `Bad Request: the request headers and body disagree: ${name} says ${clip(headerValue)} but the body says ${clip(bodyValue)}; send the same value in both`,
    { mismatch: { header: clip(headerValue), body: clip(bodyValue) } },
  );
}

function missingHeader(name: string, bodyValue: string): ModernError {
  return new ModernError(
    BAD_REQUEST,
    HEADER_MISMATCH,
    `Bad Request: the request headers and body disagree: ` +
      `the body says ${clip(bodyValue)} but the required ${name} header is absent; protocol 2026-07-28 repeats it in the header`,
    { mismatch: { header: '(missing)', body: clip(bodyValue) } },
  );
}
