/**
 * The measuring client, the same code for every server: plain JSON-RPC over keep-alive HTTP
 * (node:http), the MCP handshake, a full `skills/list` walk, and `resources/read` of every listed
 * file, each checked here by size and sha256 against its entry before it counts. It is kept lean
 * on purpose: with a full SDK client the client's own CPU (about 2 ms a request here) would be
 * what the figures measure.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mapLimit } from '../measure.js';

export interface Resource {
  uri: string;
  digest: string;
  size: number;
}
export interface Entry {
  uri: string;
  resources: Resource[] | 'dynamic';
}

export interface BenchClient {
  /** Every entry, page by page; returns the entries and the number of pages. */
  listAll(): Promise<{ entries: Entry[]; pages: number }>;
  /** Read and verify every file with `inFlight` requests at a time, each with `headersOf(file)` if given; returns the number read. */
  readAll(files: readonly Resource[], inFlight: number, headersOf?: (file: Resource) => Record<string, string>): Promise<number>;
  /** Any other request, with `headers` besides the client's own; resolves with its result, rejects with its JSON-RPC error. */
  call(method: string, params: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

const PROTOCOL_VERSION = '2025-11-25';
const MODERN_VERSION = '2026-07-28';
/** The `_meta` envelope of every 2026-07-28 request. */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'skillmount-bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** `legacy`: an `initialize` handshake on 2025-11-25. `modern`: 2026-07-28, every request self-contained. */
export type Era = 'legacy' | 'modern';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** The JSON-RPC messages of a response body: one JSON document, or the `data` of each server-sent event. */
function messagesOf(reply: Reply): { id?: number; result?: unknown; error?: { code: number; message: string } }[] {
  const type = String(reply.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) return [JSON.parse(reply.text)].flat();
  if (!type.startsWith('text/event-stream')) throw new Error(`bench: unexpected ${reply.status} response (${type}): ${reply.text.slice(0, 200)}`);
  const messages = [];
  for (const event of reply.text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = event
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) messages.push(JSON.parse(data.join('\n')));
  }
  return messages;
}

export async function connect(url: string, era: Era = 'legacy'): Promise<BenchClient> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let sessionId: string | undefined;
  let nextId = 1;

  const send = (method: string, body: string | undefined, extra: Record<string, string> = {}, retry = true): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...extra };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (sessionId) headers['mcp-session-id'] = sessionId;
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // An idle keep-alive connection the server closed (its keep-alive timeout) just as it was
        // reused, while other servers were being measured: nothing reached the server, so the
        // request is sent once more on a new connection.
        if (retry && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) send(method, body, extra, false).then(resolve, reject);
        else reject(error);
      });
      req.end(body);
    });

  const request = async (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}): Promise<any> => {
    const id = nextId++;
    const reply =
      era === 'modern'
        ? await send('POST', JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }), {
            'mcp-protocol-version': MODERN_VERSION,
            'mcp-method': method,
            ...(method === 'resources/read' ? { 'mcp-name': String(params.uri) } : {}),
            ...headers,
          })
        : await send('POST', JSON.stringify({ jsonrpc: '2.0', id, method, params }), { 'mcp-protocol-version': PROTOCOL_VERSION, ...headers });
    const message = messagesOf(reply).find((m) => m.id === id);
    if (!message) throw new Error(`bench: ${method}: no response in a ${reply.status} reply: ${reply.text.slice(0, 200)}`);
    if (message.error) throw new Error(`bench: ${method} failed: ${message.error.code} ${message.error.message}`);
    return message.result;
  };

  if (era === 'modern') {
    await request('server/discover', {}); // no handshake and no session on 2026-07-28
  } else {
    const init = await send(
      'POST',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'skillmount-bench', version: '1.0.0' } },
      }),
    );
    if (!messagesOf(init).some((m) => m.id === 0 && m.result)) throw new Error(`bench: initialize failed at ${url}: ${init.status} ${init.text.slice(0, 200)}`);
    const session = init.headers['mcp-session-id'];
    if (typeof session === 'string') sessionId = session;
    await send('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-protocol-version': PROTOCOL_VERSION });
  }

  const read = async (file: Resource, headers?: Record<string, string>) => {
    const result = (await request('resources/read', { uri: file.uri }, headers)) as { contents?: { text?: string; blob?: string }[] };
    const content = result.contents?.[0];
    if (!content) throw new Error(`bench: ${file.uri}: no contents`);
    const bytes = content.text !== undefined ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob ?? '', 'base64');
    const digest = 'sha256:' + createHash('sha256').update(bytes).digest('hex');
    if (bytes.byteLength !== file.size || digest !== file.digest)
      throw new Error(`bench: ${file.uri} failed verification (${bytes.byteLength} bytes, ${digest})`);
  };

  return {
    async listAll() {
      const entries: Entry[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = (await request('skills/list', cursor === undefined ? {} : { cursor })) as { skills: Entry[]; nextCursor?: string };
        for (const entry of page.skills) entries.push(entry);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      return { entries, pages };
    },
    async readAll(files, inFlight, headersOf) {
      await mapLimit(files, inFlight, (file) => read(file, headersOf?.(file)));
      return files.length;
    },
    call: request,
    async close() {
      if (sessionId) await send('DELETE', undefined, { 'mcp-protocol-version': PROTOCOL_VERSION }).catch(() => undefined);
      agent.destroy();
    },
  };
}

/** Every file of every entry, once (nested skills share files). */
export function filesOf(entries: readonly Entry[]): Resource[] {
  const byUri = new Map<string, Resource>();
  for (const entry of entries) if (Array.isArray(entry.resources)) for (const r of entry.resources) byUri.set(r.uri, r);
  return [...byUri.values()];
}
