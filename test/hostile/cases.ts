import type { RawRequest } from './raw-http.js';

/** One malformed or malicious request; every one must be refused. */
export interface HostileCase {
  group: string;
  name: string;
  request: RawRequest;
  /** A request that is valid on its era despite its look: an answer is fine, a leak is not. */
  answerable?: true;
}

const rpc = (method: unknown, params?: unknown, id: unknown = 1) =>
  JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });

/** Spellings that try to leave the skill `alpha` for `target` (a path relative to the storage root). */
function escapes(target: string): string[] {
  const enc = target.replace(/\//g, '%2f');
  return [
    `skill://alpha/../${target}`,
    `skill://alpha/%2e%2e/${target}`,
    `skill://alpha/%2E%2E/${target}`,
    `skill://alpha/.%2e/${target}`,
    `skill://alpha/%2e./${target}`,
    `skill://alpha/%252e%252e/${target}`,
    `skill://alpha/%252e%252e%252f${target.replace(/\//g, '%252f')}`,
    `skill://alpha/..%2f${enc}`,
    `skill://alpha/..%2F${enc}`,
    `skill://alpha%2f..%2f${enc}`,
    `skill://alpha/..%5c${target}`,
    `skill://alpha/..\\${target.replace(/\//g, '\\')}`,
    `skill://alpha\\..\\${target.replace(/\//g, '\\')}`,
    `skill://alpha/refs/../../${target}`,
    `skill://alpha/refs/%2e%2e/%2e%2e/${target}`,
    `skill://alpha/./../${target}`,
    `skill://alpha//../${target}`,
    `skill://alpha/..%00/${target}`,
    `skill://alpha/SKILL.md%00/../../${target}`,
    `skill://alpha/%c0%ae%c0%ae/${target}`,
    `skill://alpha/\uff0e\uff0e/${target}`,
    `skill://alpha/%ef%bc%8e%ef%bc%8e/${target}`,
    `skill://alpha/\u2024\u2024/${target}`,
    `skill://alpha/..;/${target}`,
    `skill://alpha/....//${target}`,
    `skill://alpha/SKILL.md/../../${target}`,
    `skill://../${target}`,
    `skill://%2e%2e/${target}`,
    `skill:///${target}`,
    `SKILL://alpha/../${target}`,
    `skill://user:pass@alpha/../${target}`,
    `skill://alpha:80/../${target}`,
  ];
}

/** Direct names for things that are not skill files, and odd spellings of real ones. */
function oddUris(root: string): string[] {
  return [
    'skill://secret.txt',
    'skill://notes/private.md',
    'skill://notes/deep/inner.txt',
    'skill://notes',
    'skill://alpha/SKILL.md%00',
    'skill://alpha/SKILL.md%00.txt',
    'skill://alpha/SKILL.md?x=../../secret.txt',
    'skill://alpha/SKILL.md#../../secret.txt',
    'skill://alpha/SKILL.md/..',
    'skill://user:pass@alpha/SKILL.md',
    'skill://@alpha/SKILL.md',
    'skill://alpha:8080/SKILL.md',
    'skill://alpha:99999999/SKILL.md',
    'skill:alpha/SKILL.md',
    'skill:/alpha/SKILL.md',
    'skill://\u0430lpha/SKILL.md', // Cyrillic a
    'skill://alpha/\uff33\uff2b\uff29\uff2c\uff2c.md', // fullwidth SKILL
    'skill://alpha/SKILL\u202e.md',
    'skill://alpha/SKILL.md\u0000',
    'file:///etc/passwd',
    `file://${root}/secret.txt`,
    `file://${root}/alpha/SKILL.md`,
    'http://127.0.0.1/secret.txt',
    'data:text/plain,secret',
    'javascript:alert(1)',
    '../secret.txt',
    '/etc/passwd',
    `skill://alpha/${'a'.repeat(100_000)}`,
    `skill://${'a/'.repeat(50_000)}SKILL.md`,
    `skill://alpha/${'../'.repeat(30_000)}secret.txt`,
  ];
}

const WRONG_VALUES: readonly unknown[] = [5, -1, true, null, [], {}, ['skill://alpha/SKILL.md'], { uri: 'skill://alpha/SKILL.md' }, ''];

export function hostileCases(root: string): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (group: string, name: string, request: RawRequest) => cases.push({ group, name, request });

  // Traversal and odd URIs, on every method that takes a URI.
  const uris = [
    ...escapes('secret.txt'),
    ...escapes('notes/private.md'),
    ...escapes('beta/SKILL.md'),
    ...escapes('beta/data/secret-beta.txt'),
    ...oddUris(root),
  ];
  const unique = [...new Set(uris)];
  for (const uri of unique) {
    for (const method of ['resources/read', 'skills/get', 'resources/directory/read']) {
      add('uri', `${method} ${uri.slice(0, 80)}`, { body: rpc(method, { uri }) });
    }
  }
  // Directory reads that try to list what is beside a skill.
  for (const uri of ['skill://alpha/..', 'skill://alpha/%2e%2e', 'skill://alpha/refs/../..', 'skill://notes/deep', 'skill://', 'skill:///']) {
    add('uri', `resources/directory/read ${uri}`, { body: rpc('resources/directory/read', { uri }) });
  }

  // Cursors that were never issued.
  const cursors = ['A'.repeat(100_000), '../../secret.txt', '%00', '\u0000', '====', 'a1:skill://alpha/SKILL.md', ' '];
  for (const cursor of cursors) {
    add('cursor', `skills/list cursor ${cursor.slice(0, 20)}`, { body: rpc('skills/list', { cursor }) });
    add('cursor', `directory cursor ${cursor.slice(0, 20)}`, { body: rpc('resources/directory/read', { uri: 'skill://alpha', cursor }) });
  }

  // Wrong types in every param of every method.
  const params: [string, string[]][] = [
    ['skills/list', ['cursor']],
    ['skills/get', ['uri']],
    ['resources/read', ['uri']],
    ['resources/directory/read', ['uri', 'cursor']],
    ['resources/list', ['cursor']],
    ['resources/templates/list', ['cursor']],
  ];
  for (const [method, names] of params) {
    for (const name of names) {
      for (const value of WRONG_VALUES) {
        if (name === 'cursor' && value === '') continue; // an empty cursor is refused too, but not a type error
        const base: Record<string, unknown> = method === 'resources/directory/read' ? { uri: 'skill://alpha' } : {};
        add('types', `${method} ${name}=${JSON.stringify(value)}`, { body: rpc(method, { ...base, [name]: value }) });
      }
    }
    for (const p of [5, 'params', [], true]) add('types', `${method} params=${JSON.stringify(p)}`, { body: rpc(method, p) });
  }
  for (const [field, value] of [
    ['protocolVersion', 5],
    ['capabilities', 'all'],
    ['clientInfo', null],
  ] as const) {
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' }, [field]: value };
    add('types', `initialize ${field}=${JSON.stringify(value)}`, { body: rpc('initialize', init) });
  }
  for (const [name, message] of [
    ['id object', { jsonrpc: '2.0', id: {}, method: 'skills/list' }],
    ['id array', { jsonrpc: '2.0', id: [1], method: 'skills/list' }],
    ['id true', { jsonrpc: '2.0', id: true, method: 'skills/list' }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'skills/list' }],
    ['no jsonrpc', { id: 1, method: 'skills/list' }],
    ['method number', { jsonrpc: '2.0', id: 1, method: 5 }],
    ['method null', { jsonrpc: '2.0', id: 1, method: null }],
  ] as const) {
    add('types', name, { body: JSON.stringify(message) });
  }

  // Unknown methods.
  for (const method of [
    'skills/delete',
    'skills/../list',
    'skills/list/',
    'SKILLS/LIST',
    '',
    ' ',
    'resources/write',
    'x'.repeat(10_000),
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ]) {
    add('method', `method ${JSON.stringify(method.slice(0, 30))}`, { body: rpc(method, {}) });
  }

  // Broken JSON.
  const deep = 100_000;
  for (const [name, body] of [
    ['open brace', '{'],
    ['truncated', '{"jsonrpc":"2.0","id":1,"method":"skills/li'],
    ['trailing garbage', `${rpc('skills/list', {})}garbage`],
    ['two objects', `${rpc('skills/list', {})}${rpc('skills/list', {})}`],
    ['null', 'null'],
    ['string', '"skills/list"'],
    ['number', '5'],
    ['true', 'true'],
    ['empty', ''],
    ['NUL', '\u0000'],
    ['single quotes', "{'jsonrpc':'2.0','id':1,'method':'skills/list'}"],
    ['proto pollution', '{"jsonrpc":"2.0","id":1,"method":"skills/list","__proto__":{"polluted":true}}'],
    ['deep arrays', '['.repeat(deep) + ']'.repeat(deep)],
    ['deep params', `{"jsonrpc":"2.0","id":1,"method":"skills/get","params":${'{"uri":'.repeat(deep)}1${'}'.repeat(deep)}}`],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
  ] as const) {
    add('json', name, { body });
  }

  // Bodies over the 1 MiB limit.
  const big = rpc('skills/get', { uri: `skill://alpha/${'x'.repeat(2 * 1024 * 1024)}` });
  add('size', 'Content-Length 2 MiB', { body: big });
  add('size', 'chunked 2 MiB', { body: big, chunked: true });
  add('size', 'declared 10 GiB', { body: '{"jsonrpc":"2.0",', declaredLength: 10 * 1024 ** 3 });
  add('size', 'declared 1 MiB + 1', { body: 'x'.repeat(1024 * 1024 + 1) });

  // Batch abuse.
  const read = (uri: string, id: number) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });
  add('batch', 'empty batch', { body: '[]' });
  add('batch', '101 messages', { body: JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'skills/list' }))) });
  add('batch', '5000 messages', { body: JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))) });
  add('batch', '100 traversal reads', { body: JSON.stringify(Array.from({ length: 100 }, (_, i) => read(`skill://alpha/%2e%2e/secret.txt?${i}`, i))) });
  add('batch', 'mixed hostile', {
    body: JSON.stringify([
      read('skill://alpha/../secret.txt', 1),
      { jsonrpc: '2.0', id: 2, method: 'skills/delete' },
      { jsonrpc: '2.0', id: 3, method: 'skills/get', params: { uri: 5 } },
    ]),
  });
  add('batch', 'one broken member', { body: JSON.stringify([read('skill://alpha/SKILL.md', 1), 5]) });
  add('batch', 'nested batch', { body: '[[]]' });
  add('batch', 'two initializes', {
    body: JSON.stringify(
      [1, 2].map((id) => ({
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      })),
    ),
  });
  add('batch', 'same id twice, hostile', { body: JSON.stringify([read('skill://notes/private.md', 7), read('skill://secret.txt', 7)]) });

  // Content types.
  const list = rpc('skills/list', {});
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/html; a=application/json',
    'application/jsonx',
    'application/json-patch+json',
    undefined,
  ]) {
    add('content-type', `content-type ${type}`, { body: list, headers: { 'content-type': type } });
  }

  // Accept headers.
  for (const accept of [undefined, 'application/json', 'text/event-stream', '*/*', 'text/html']) {
    add('accept', `accept ${accept}`, { body: list, headers: { accept } });
  }

  // Host and Origin headers a DNS-rebinding page would send.
  for (const host of [
    'evil.example',
    'evil.example:80',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    'localhost@evil.example',
    '[::2]',
    '0.0.0.0',
    '169.254.169.254',
    'LOCALHOST.evil.example:1234',
    'localhost:abc',
  ]) {
    add('host', `host ${host}`, { body: list, headers: { host } });
  }
  for (const origin of ['http://evil.example', 'null', 'http://localhost.evil.example', 'file://', 'https://127.0.0.1.evil.example']) {
    add('origin', `origin ${origin}`, { body: list, headers: { origin } });
  }

  // HTTP methods the stateless endpoint does not take.
  for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) add('http-method', method, { method, body: method === 'GET' ? undefined : list });

  return cases;
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A header value as a 2026-07-28 client sends it: base64 in a sentinel when it is not plain printable ASCII. */
const headerValue = (value: string) => (/^[\x20-\x7e]*$/.test(value) && value.trim() === value ? value : `=?base64?${Buffer.from(value).toString('base64')}?=`);

/** One JSON-RPC request of a hostile case, dressed in the 2026-07-28 envelope where it has the shape for it. */
function withEnvelope(message: unknown, headers: Record<string, string | undefined>): unknown {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return message;
  const m = { ...(message as Record<string, unknown>) };
  if (typeof m.method === 'string') headers['mcp-method'] ??= headerValue(m.method);
  if (m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params))) {
    const params = { ...(m.params as Record<string, unknown> | undefined) };
    if (m.method === 'resources/read' && typeof params.uri === 'string') headers['mcp-name'] ??= headerValue(params.uri);
    m.params = { ...params, _meta: MODERN_META };
  }
  return m;
}

/**
 * The same attacks on the 2026-07-28 path: each case with the `MCP-Protocol-Version: 2026-07-28`
 * header and, where its body has the shape for it, the `_meta` envelope and the other headers a
 * modern client sends. The Accept cases are left out: 2026-07-28 servers ignore Accept.
 */
export function modernHostileCases(root: string): HostileCase[] {
  return hostileCases(root)
    .filter((c) => c.group !== 'accept')
    .map((c) => {
      const headers: Record<string, string | undefined> = { 'mcp-protocol-version': '2026-07-28', ...c.request.headers };
      let body = c.request.body;
      if (typeof body === 'string' && c.request.declaredLength === undefined) {
        try {
          const parsed: unknown = JSON.parse(body);
          body = JSON.stringify(Array.isArray(parsed) ? parsed.map((m) => withEnvelope(m, {})) : withEnvelope(parsed, headers));
        } catch {
          // Not JSON: sent as it is.
        }
      }
      // With the envelope, an extra "__proto__" member leaves a valid skills/list: it may be answered (and must pollute nothing).
      const answerable = c.name === 'proto pollution' ? { answerable: true as const } : {};
      return { group: c.group, name: c.name, request: { ...c.request, headers, ...(body !== undefined ? { body } : {}) }, ...answerable };
    });
}
