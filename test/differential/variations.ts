/**
 * Generated requests: a plausible skills request, then a few of its parts varied at random (the
 * id, the params, `_meta`, extra members, the URI's spelling, the headers). The seed and the case's
 * index name it, so a failure reproduces from the two.
 */
import type { SkillCatalog } from '@skillmount/core';
import { mulberry32, type Random } from './mulberry32.ts';
import { bodyOf, dressed, type DiffCase, type Draft, type Era, headerValue, META_CAPABILITIES, META_CLIENT_INFO, META_VERSION } from './requests.ts';

/** What the generator draws from: the catalog's real URIs and cursors. */
export interface Pools {
  skills: string[];
  files: string[];
  folders: string[];
  cursors: string[];
}

export async function poolsOf(catalog: SkillCatalog): Promise<Pools> {
  const files = catalog.entries.flatMap((entry) => (Array.isArray(entry.resources) ? entry.resources.map((r) => r.uri) : []));
  const folders = ['skill://gamma', 'skill://gamma/docs', 'skill://gamma/docs/deep', 'skill://alpha/refs', 'skill://acme/billing/refunds'];
  const cursors = [(await catalog.list()).nextCursor!, (await catalog.readDirectory('skill://gamma/docs')).nextCursor!];
  return {
    skills: [...catalog.entries.map((e) => e.uri), 'skill://nope/SKILL.md'],
    files: [...files, 'skill://alpha/refs/missing.md', 'skill://secret.txt', 'skill://notes/private.md'],
    folders: [...folders, 'skill://gamma/nothing', 'skill://alpha/SKILL.md', 'skill://notes'],
    cursors: [...cursors, 'not-a-cursor', ''],
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A variation: what it did (for the failure message), having changed the draft in place; undefined when it had nothing to change. */
type Vary = (draft: Draft, random: Random, era: Era) => string | undefined;

/** URI respellings: each keeps the URI recognisable and changes how it is written. */
const SPELLINGS: readonly [string, (uri: string, random: Random) => string][] = [
  ['a letter percent-encoded', (uri, r) => encodeOne(uri, r)],
  ['escapes in lower case', (uri) => uri.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
  ['scheme in upper case', (uri) => uri.replace(/^skill:/, 'SKILL:')],
  ['host in upper case', (uri) => uri.replace(/^skill:\/\/([^/]+)/, (_, host: string) => `skill://${host.toUpperCase()}`)],
  ['a ./ segment', (uri, r) => atSlash(uri, r, '/.')],
  ['a x/.. segment', (uri, r) => atSlash(uri, r, '/x/..')],
  ['an empty userinfo', (uri) => uri.replace(/^skill:\/\//, 'skill://@')],
  ['a userinfo', (uri) => uri.replace(/^skill:\/\//, 'skill://u:p@')],
  ['a port', (uri) => uri.replace(/^skill:\/\/([^/]+)/, 'skill://$1:80')],
  ['a trailing slash', (uri) => `${uri}/`],
  ['a double slash', (uri, r) => atSlash(uri, r, '/')],
  ['a slash as %2F', (uri, r) => atSlash(uri, r, '', '%2F')],
  ['a query', (uri) => `${uri}?x=1`],
  ['a fragment', (uri) => `${uri}#part`],
  ['unescaped', (uri) => decodeURIComponent(uri)],
  ['a backslash', (uri, r) => atSlash(uri, r, '', '\\')],
  ['very long', (uri, r) => `${uri}/${'a'.repeat(r.pick([100, 1000, 8100, 8170, 8179, 8180, 8200, 20_000]))}`],
  ['long at the 8192 bound', (uri) => `${uri}${'b'.repeat(Math.max(0, 8192 - uri.length))}`],
];

function encodeOne(uri: string, random: Random): string {
  const start = 'skill://'.length;
  const letters = [...uri.slice(start)].map((c, i) => (/[a-z]/i.test(c) ? i + start : -1)).filter((i) => i >= 0);
  if (letters.length === 0) return uri;
  const at = random.pick(letters);
  return `${uri.slice(0, at)}%${uri.charCodeAt(at).toString(16).toUpperCase()}${uri.slice(at + 1)}`;
}

/** `uri` with `insert` added at one of its path's slashes (or that slash replaced by `replace`). */
function atSlash(uri: string, random: Random, insert: string, replace?: string): string {
  const start = 'skill://'.length;
  const slashes = [...uri.slice(start)].map((c, i) => (c === '/' ? i + start : -1)).filter((i) => i >= 0);
  if (slashes.length === 0) return `${uri}${insert}`;
  const at = random.pick(slashes);
  return replace === undefined ? `${uri.slice(0, at)}${insert}${uri.slice(at)}` : `${uri.slice(0, at)}${replace}${uri.slice(at + 1)}`;
}

/** Ids as JSON text, including ones a JavaScript number cannot hold exactly. */
const IDS = [
  '0',
  '-1',
  '7',
  '-2147483648',
  '9007199254740991',
  '9007199254740993',
  '-9007199254740993',
  '1e21',
  '1e2',
  '1.5',
  '1.0',
  '-0',
  'null',
  '""',
  '"a"',
  '"ünïcödé"',
  JSON.stringify('x'.repeat(5000)),
  'true',
  '{}',
  '[1]',
];

/** `_meta` values, from what clients send to shapes no schema takes. */
const METAS: readonly unknown[] = [
  {},
  { progressToken: 'tok' },
  { progressToken: 1 },
  { progressToken: 0 },
  { progressToken: -5 },
  { progressToken: 1.5 },
  { progressToken: 9007199254740991 },
  { progressToken: 1e300 },
  { progressToken: null },
  { progressToken: {} },
  { progressToken: ['a'] },
  { progressToken: true },
  { progressToken: '' },
  { nested: { a: { b: { c: [1, { d: null }] } } } },
  { list: [1, 'two', { three: 3 }] },
  { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } },
  { 'io.modelcontextprotocol/related-task': 7 },
  { 'example.com/trace': 'abc', progressToken: 'tok' },
  null,
  [],
  'meta',
  5,
];

const ACCEPTS = [
  'application/json, text/event-stream',
  'text/event-stream, application/json',
  'application/json;q=0.9, text/event-stream;q=0.8',
  'APPLICATION/JSON, TEXT/EVENT-STREAM',
  'application/json,text/event-stream',
  '*/*',
  'application/*, text/*',
  'application/json',
  'text/event-stream',
  'text/html',
  undefined,
];

const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/json ; charset=utf-8',
  'Application/JSON',
  'application/json; charset=latin1',
  'application/json; foo=bar',
  'application/json-rpc',
  'text/plain',
];

const LEGACY_VERSION_HEADERS = ['2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07', '1999-01-01', '2027-01-01', 'garbage', '', undefined];
const MODERN_VERSION_HEADERS = ['2025-11-25', '2025-06-18', '1999-01-01', '2027-01-01', '', undefined];

/** The variations, each drawn with its own chance; several may apply to one request. */
const VARIATIONS: readonly [number, Vary][] = [
  [
    0.35,
    (draft, r) => {
      draft.id = r.pick([...IDS, undefined]);
      return `id ${draft.id ?? '(none)'}`;
    },
  ],
  [
    0.1,
    (draft, r) => {
      const shape = r.pick(['missing', 'null', 'array', 'string', 'number', 'extra field', 'extra object']);
      const params = draft.params as Record<string, unknown> | undefined;
      draft.params = {
        missing: undefined,
        null: null,
        array: [],
        string: 'params',
        number: 5,
        'extra field': { ...params, unexpected: true },
        'extra object': { ...params, options: { deep: [1, 2] } },
      }[shape];
      return `params ${shape}`;
    },
  ],
  [
    0.35,
    (draft, r) => {
      if (!isObject(draft.params)) return undefined;
      const meta = r.pick(METAS);
      const params = draft.params;
      const base = typeof params._meta === 'object' && params._meta !== null ? params._meta : {};
      params._meta = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? { ...base, ...meta } : meta;
      return `_meta ${JSON.stringify(params._meta).slice(0, 120)}`;
    },
  ],
  [
    0.08,
    (draft, r) => {
      const [name, text] = r.pick([
        ['extra', 'true'],
        ['result', '{}'],
        ['error', 'null'],
        ['__proto__', '{"polluted":true}'],
        ['constructor', '{"prototype":{"polluted":true}}'],
        ['jsonrpc', '"2.0"'],
        ['method', '"tools/list"'],
      ] as const);
      draft.extra[name] = text;
      return `extra member ${name}: ${text}`;
    },
  ],
  [
    0.3,
    (draft, r) => {
      const params = draft.params;
      if (!isObject(params) || typeof params.uri !== 'string') return undefined;
      const [what, respell] = r.pick(SPELLINGS);
      const uri = respell(params.uri, r);
      params.uri = uri;
      // A 2026-07-28 client repeats the URI it sends in Mcp-Name.
      if (draft.headers['mcp-name'] !== undefined) draft.headers['mcp-name'] = headerValue(uri);
      return `URI ${what}: ${uri.slice(0, 120)}`;
    },
  ],
  [
    0.15,
    (draft, r) => {
      draft.headers.accept = r.pick(ACCEPTS);
      return `accept ${draft.headers.accept}`;
    },
  ],
  [
    0.12,
    (draft, r) => {
      draft.headers['content-type'] = r.pick(CONTENT_TYPES);
      return `content-type ${draft.headers['content-type']}`;
    },
  ],
  [
    0.12,
    (draft, r, era) => {
      draft.headers['mcp-protocol-version'] = r.pick(era === '2025-11-25' ? LEGACY_VERSION_HEADERS : MODERN_VERSION_HEADERS);
      return `MCP-Protocol-Version ${draft.headers['mcp-protocol-version'] ?? '(none)'}`;
    },
  ],
];

/** Variations of the 2026-07-28 envelope only: the `_meta` fields and the headers that repeat the body. */
const MODERN_VARIATIONS: readonly [number, Vary][] = [
  [
    0.1,
    (draft, r) => {
      const meta = isObject(draft.params) ? draft.params._meta : undefined;
      if (!isObject(meta)) return undefined;
      const [key, value] = r.pick([
        [META_VERSION, undefined],
        [META_VERSION, '2025-11-25'],
        [META_VERSION, 7],
        [META_CAPABILITIES, undefined],
        [META_CAPABILITIES, { roots: { listChanged: true } }],
        [META_CAPABILITIES, { roots: 5 }],
        [META_CAPABILITIES, 'all'],
        [META_CLIENT_INFO, undefined],
        [META_CLIENT_INFO, { name: 'x' }],
        [META_CLIENT_INFO, { name: 'x', version: '1', title: 'X' }],
        ['io.modelcontextprotocol/logLevel', 'debug'],
        ['io.modelcontextprotocol/logLevel', 5],
      ] as const);
      if (value === undefined) delete meta[key];
      else meta[key] = value;
      return `_meta ${key} ${JSON.stringify(value) ?? '(none)'}`;
    },
  ],
  [
    0.1,
    (draft, r) => {
      const [name, value] = r.pick([
        ['mcp-method', undefined],
        ['mcp-method', 'tools/list'],
        ['mcp-method', headerValue(` ${draft.method}`)],
        ['mcp-method', `=?base64?${Buffer.from(draft.method).toString('base64')}?=`],
        ['mcp-name', undefined],
        ['mcp-name', 'skill://alpha/SKILL.md'],
        ['mcp-name', '=?base64?not base64?='],
      ] as const);
      draft.headers[name] = value;
      return `${name} ${value ?? '(none)'}`;
    },
  ],
];

/** A plausible request: one skills method on a URI (or cursor) from the pools. */
function baseDraft(random: Random, pools: Pools, era: Era): Draft {
  const method = random.pick(['skills/list', 'skills/get', 'resources/read', 'resources/read', 'resources/directory/read']);
  const params: Record<string, unknown> = {};
  if (method === 'skills/get') params.uri = random.pick(pools.skills);
  if (method === 'resources/read') params.uri = random.pick(pools.files);
  if (method === 'resources/directory/read') params.uri = random.pick(pools.folders);
  if ((method === 'skills/list' || method === 'resources/directory/read') && random.chance(0.3)) params.cursor = random.pick(pools.cursors);
  return dressed({ method, id: String(random.int(1000)), params, extra: {} }, era);
}

/** `count` generated requests on `era` from `seed`; case `i` depends only on the seed and `i`. */
export function generated(seed: number, count: number, pools: Pools, era: Era): DiffCase[] {
  const cases: DiffCase[] = [];
  const variations = era === '2025-11-25' ? VARIATIONS : [...VARIATIONS, ...MODERN_VARIATIONS];
  for (let i = 0; i < count; i++) {
    const random = mulberry32((seed + Math.imul(i + 1, 0x9e3779b1)) >>> 0);
    const draft = baseDraft(random, pools, era);
    const done: string[] = [];
    for (const [chance, vary] of variations) {
      if (!random.chance(chance)) continue;
      const what = vary(draft, random, era);
      if (what !== undefined) done.push(what);
    }
    const what = done.length > 0 ? done.join('; ') : 'as a client sends it';
    cases.push({
      group: 'generated',
      name: `seed ${seed} #${i}: ${draft.method}, ${what}`,
      request: { headers: draft.headers, body: bodyOf(draft) },
    });
  }
  return cases;
}
