/**
 * The requests of a differential run, on each era: the valid ones (every method, existing and
 * missing URIs, real and forged cursors) and the hostile corpus. Generated ones are in variations.ts.
 */
import type { SkillCatalog } from '@skillmount/core';
import { hostileCases, modernHostileCases } from '../hostile/cases.ts';
import type { RawRequest } from '../hostile/raw-http.ts';

export type Era = '2025-11-25' | '2026-07-28';

/** One request to send to every target of an era. */
export interface DiffCase {
  group: string;
  name: string;
  request: RawRequest;
}

/** The parts of a JSON-RPC request, each as it goes on the wire. */
export interface Draft {
  method: string;
  /** The id's JSON text, kept as text so unsafe integers and spellings like `1e2` reach the server as written; undefined: no id. */
  id: string | undefined;
  /** undefined: no `params` member. */
  params: unknown;
  /** Members besides jsonrpc, id, method and params, as JSON texts by name. */
  extra: Record<string, string>;
  headers: Record<string, string | undefined>;
}

/** The body text of `draft`. */
export function bodyOf(draft: Draft): string {
  const members = ['"jsonrpc":"2.0"'];
  if (draft.id !== undefined) members.push(`"id":${draft.id}`);
  members.push(`"method":${JSON.stringify(draft.method)}`);
  if (draft.params !== undefined) members.push(`"params":${JSON.stringify(draft.params)}`);
  for (const [name, text] of Object.entries(draft.extra)) members.push(`${JSON.stringify(name)}:${text}`);
  return `{${members.join(',')}}`;
}

export const MODERN = '2026-07-28';
export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';

/** The `_meta` every 2026-07-28 request carries. */
export const ENVELOPE: Readonly<Record<string, unknown>> = {
  [META_VERSION]: MODERN,
  [META_CLIENT_INFO]: { name: 'differential', version: '0.0.0' },
  [META_CAPABILITIES]: {},
};

/** A header value as a 2026-07-28 client sends it: base64 in a sentinel when it is not plain printable ASCII. */
export const headerValue = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) && value.trim() === value ? value : `=?base64?${Buffer.from(value).toString('base64')}?=`;

/** The headers a 2026-07-28 client sends for `method` with `params`. */
export function modernHeaders(method: string, params: unknown): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': headerValue(method) };
  const uri = method === 'resources/read' && typeof params === 'object' && params !== null ? (params as { uri?: unknown }).uri : undefined;
  if (typeof uri === 'string') headers['mcp-name'] = headerValue(uri);
  return headers;
}

/** `draft` as a client of `era` sends it: the 2026-07-28 envelope in `_meta` and the headers, or the 2025-11-25 version header. */
export function dressed(draft: Omit<Draft, 'headers'>, era: Era): Draft {
  if (era === '2025-11-25') return { ...draft, headers: { 'mcp-protocol-version': '2025-11-25' } };
  const params = (draft.params ?? {}) as Record<string, unknown>;
  return { ...draft, params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as object | undefined) } }, headers: modernHeaders(draft.method, params) };
}

const plain = (method: string, params?: Record<string, unknown>, id = 1): Omit<Draft, 'headers'> => ({ method, id: String(id), params, extra: {} });

/** Valid requests (and plainly missing things) on every method, with cursors the catalog issued and forged ones. */
export async function validCases(catalog: SkillCatalog, era: Era): Promise<DiffCase[]> {
  const list = await catalog.list();
  const listAfter = (await catalog.list({ cursor: list.nextCursor })).nextCursor;
  const docs = await catalog.readDirectory('skill://gamma/docs');
  const files = catalog.entries.flatMap((entry) => (Array.isArray(entry.resources) ? entry.resources.map((r) => r.uri) : []));
  const drafts: [string, Omit<Draft, 'headers'>][] = [
    ['skills/list', plain('skills/list')],
    ['skills/list {}', plain('skills/list', {})],
    ['skills/list page 2', plain('skills/list', { cursor: list.nextCursor })],
    ['skills/list page 3', plain('skills/list', { cursor: listAfter })],
    ['skills/list forged cursor', plain('skills/list', { cursor: 'YTE6c2tpbGw6Ly96enovU0tJTEwubWQ' })],
    ['skills/list bad cursor', plain('skills/list', { cursor: 'not-a-cursor' })],
    ...catalog.entries.map((entry): [string, Omit<Draft, 'headers'>] => [`skills/get ${entry.uri}`, plain('skills/get', { uri: entry.uri })]),
    ['skills/get missing', plain('skills/get', { uri: 'skill://nope/SKILL.md' })],
    ['skills/get a file that is not SKILL.md', plain('skills/get', { uri: 'skill://alpha/refs/guide.md' })],
    ['skills/get a folder', plain('skills/get', { uri: 'skill://alpha' })],
    ...files.map((uri): [string, Omit<Draft, 'headers'>] => [`resources/read ${uri}`, plain('resources/read', { uri })]),
    ...digestReads(catalog),
    ['resources/read missing file', plain('resources/read', { uri: 'skill://alpha/refs/missing.md' })],
    ['resources/read missing skill', plain('resources/read', { uri: 'skill://nope/SKILL.md' })],
    ['resources/read beside the skills', plain('resources/read', { uri: 'skill://secret.txt' })],
    ['resources/read a folder', plain('resources/read', { uri: 'skill://gamma/docs' })],
    ['resources/read another scheme', plain('resources/read', { uri: 'app://readme' })],
    ...['skill://gamma', 'skill://gamma/docs', 'skill://gamma/docs/deep', 'skill://alpha/refs', 'skill://acme/billing/refunds'].map(
      (uri): [string, Omit<Draft, 'headers'>] => [`resources/directory/read ${uri}`, plain('resources/directory/read', { uri })],
    ),
    ['resources/directory/read page 2', plain('resources/directory/read', { uri: 'skill://gamma/docs', cursor: docs.nextCursor })],
    ['resources/directory/read a cursor of another folder', plain('resources/directory/read', { uri: 'skill://gamma/docs/deep', cursor: docs.nextCursor })],
    ['resources/directory/read missing', plain('resources/directory/read', { uri: 'skill://gamma/nothing' })],
    ['resources/directory/read a file', plain('resources/directory/read', { uri: 'skill://alpha/SKILL.md' })],
    ['resources/directory/read trailing slash', plain('resources/directory/read', { uri: 'skill://gamma/docs/' })],
    ['resources/list', plain('resources/list')],
    ['resources/templates/list', plain('resources/templates/list')],
    ['tools/list', plain('tools/list')],
  ];
  return drafts.map(([name, draft]) => {
    const wire = dressed(draft, era);
    return { group: 'valid', name, request: { headers: wire.headers, body: bodyOf(wire) } };
  });
}

/** The `_meta` key under which a client names the digest of the entry it holds. */
const DIGEST = 'io.github.skillmount/digest';

/** Reads that name a digest: the file's own, one it never had (the entry changed), and one that is no digest. */
function digestReads(catalog: SkillCatalog): [string, Omit<Draft, 'headers'>][] {
  const file = catalog.entries.flatMap((entry) => (Array.isArray(entry.resources) ? entry.resources : []))[0]!;
  const naming = (digest: unknown) => plain('resources/read', { uri: file.uri, _meta: { [DIGEST]: digest } });
  return [
    ['resources/read naming its digest', naming(file.digest)],
    ['resources/read naming a digest it no longer has', naming(`sha256:${'0'.repeat(64)}`)],
    ['resources/read naming a malformed digest', naming('md5:0')],
  ];
}

/** Where the hostile corpus's file:// URIs point; the catalog is in memory, so any path does. */
const ROOT = '/srv/skills';

/** The hostile corpus (test/hostile/cases.ts) on `era`. */
export function hostile(era: Era): DiffCase[] {
  const cases = era === '2025-11-25' ? hostileCases(ROOT) : modernHostileCases(ROOT);
  return cases.map((c) => ({ group: `hostile ${c.group}`, name: c.name, request: c.request }));
}

/**
 * Requests at the edges the pins and fixes are about, so each is tried on every run whatever the
 * generator draws: a version header no client of the era sends, a content type and an Accept both
 * wrong, a content type SDK releases disagree on, `_meta` values the SDK's schema refuses (on 2026-07-28 those once left the request
 * unanswered on the app's path), and read URIs McpServer refuses or respells.
 */
export function edgeCases(era: Era): DiffCase[] {
  const edge = (name: string, draft: Omit<Draft, 'headers'>, headers: Record<string, string | undefined> = {}): DiffCase => {
    const wire = dressed(draft, era);
    return { group: 'edge', name, request: { headers: { ...wire.headers, ...headers }, body: bodyOf(wire) } };
  };
  return [
    edge('an unknown MCP-Protocol-Version', plain('skills/list'), { 'mcp-protocol-version': '2027-01-01' }),
    edge('a text/plain body that accepts JSON only', plain('skills/list'), { 'content-type': 'text/plain', accept: 'application/json' }),
    // SDK 1.29 refuses it (415), later releases take it: the fast path must leave it to the SDK in use.
    edge('a JSON content type in capitals', plain('skills/list'), { 'content-type': 'Application/JSON' }),
    edge('progressToken null', plain('skills/list', { _meta: { progressToken: null } })),
    edge('progressToken 1.5', plain('skills/get', { uri: 'skill://alpha/SKILL.md', _meta: { progressToken: 1.5 } })),
    edge('progressToken null on a method the app answers', plain('tools/list', { _meta: { progressToken: null } })),
    edge('a related task that is a number', plain('resources/read', { uri: 'skill://alpha/SKILL.md', _meta: { 'io.modelcontextprotocol/related-task': 7 } })),
    edge('a read with a dot segment', plain('resources/read', { uri: 'skill://alpha/./SKILL.md' })),
    edge('a read with an empty userinfo', plain('resources/read', { uri: 'skill://@alpha/SKILL.md' })),
    edge('a read with a backslash', plain('resources/read', { uri: 'skill://alpha\\SKILL.md' })),
    edge('a read with a lower-case escape', plain('resources/read', { uri: 'skill://gamma/docs/caf%c3%a9.md' })),
    edge('a read that is not a URL', plain('resources/read', { uri: 'skill://gamma/docs/a b.md' })),
  ];
}
