/**
 * Raw 2026-07-28 requests for tests: the envelope (headers and `_meta`) a modern client sends,
 * which a test can then break on purpose.
 */
import express from 'express';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { fsStorage } from '@skillmount/storage-fs';
import type { SkillWarning } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import Fastify from 'fastify';
import { EXAMPLES } from '../support/skills-suite.js';
import { listenExpress, listenFastify } from '../support/apps.js';

export const MODERN = '2026-07-28';

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON body, or the last SSE frame's message. */
  message: any;
  /** Every SSE frame's message, in order (empty for a JSON answer). */
  frames: any[];
}

/** The `_meta` every modern request carries. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'skillmount-modern-tests', version: '0.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
    ...extra,
  };
}

/** The headers a modern client sends for `method` with `params`. */
export function modernHeaders(method: string, params: Record<string, unknown> = {}): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

let nextId = 1;

/** POST one modern request; `headers` and `meta` override or (with `undefined`) remove the defaults. */
export async function modern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { meta?: Record<string, unknown>; headers?: Record<string, string | undefined>; id?: unknown; body?: unknown } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  for (const [k, v] of Object.entries({ ...modernHeaders(method, params), ...options.headers })) if (v !== undefined) headers[k] = v;
  const body = options.body ?? { jsonrpc: '2.0', id: 'id' in options ? options.id : nextId++, method, params: { ...params, _meta: envelope(options.meta) } };
  const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return parseAnswer(res);
}

export async function parseAnswer(res: Response): Promise<RawAnswer> {
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const frames = type.startsWith('text/event-stream')
    ? text
        .split('\n\n')
        .map((block) => block.split('\n').find((line) => line.startsWith('data: ')))
        .filter((line): line is string => line !== undefined)
        .map((line) => JSON.parse(line.slice(6)))
    : [];
  const message = type.startsWith('application/json') ? JSON.parse(text) : frames.at(-1);
  return { status: res.status, headers: res.headers, text, message, frames };
}

/**
 * The app of the tests: an McpServer with an `add` tool (reporting progress when asked), a tool
 * that logs, a tool that asks the client for input, a prompt and a resource of its own.
 */
export function appServer(): McpServer {
  const mcp = new McpServer(
    { name: 'calculator-app', version: '3.1.4' },
    { instructions: 'Adds numbers; skills explain refunds.', capabilities: { logging: {} } },
  );
  mcp.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      for (const step of [1, 2]) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: 2, message: `step ${step}` } });
      }
    }
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  mcp.registerTool('chatty', { description: 'Logs at two levels, then answers' }, async (extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'debug', data: 'a debug line' } });
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'warning', data: 'a warning line' } });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  mcp.registerTool('confirm', { description: 'Asks the user through elicitation' }, async () => {
    try {
      const answer = await mcp.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
      return { content: [{ type: 'text', text: `answered ${answer.action}` }] };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
    }
  });
  mcp.registerPrompt('greet', { description: 'Greets someone', argsSchema: { who: z.string() } }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${who}` } }],
  }));
  mcp.registerResource('readme', 'app://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'the app readme' }] }));
  return mcp;
}

export interface RunningApp {
  url: string;
  reload(): Promise<unknown>;
  close(): Promise<void>;
}

/** The test app behind the Fastify plugin or the Express middleware, on a free loopback port. */
export async function startTestApp(
  framework: 'fastify' | 'express',
  options: { sessions?: boolean; storage?: ReturnType<typeof fsStorage>; onWarning?: (warning: SkillWarning) => void } = {},
): Promise<RunningApp> {
  const storage = options.storage ?? fsStorage(EXAMPLES);
  const warnings = options.onWarning ? { onWarning: options.onWarning } : {};
  if (framework === 'fastify') {
    // With a requestTimeout, as the plugin's README asks: without one the plugin warns about it.
    const app = Fastify({ requestTimeout: 30_000 });
    await app.register(skillsPlugin, { storage, server: appServer, sessions: options.sessions ?? true, ...warnings });
    return { ...(await listenFastify(app)), reload: () => app.skills.reload() };
  }
  const app = express();
  const skills = skillsMiddleware({ storage, server: appServer, sessions: options.sessions ?? true, ...warnings });
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  await skills.ready;
  return {
    url: http.url,
    reload: () => skills.reload(),
    close: async () => {
      await skills.close();
      await http.close();
    },
  };
}

export interface ListenStream {
  status: number;
  /** Every message received so far. */
  frames: any[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once `count` frames have arrived. */
  frame(count: number, ms?: number): Promise<any>;
  /** Abort the stream from the client side. */
  close(): void;
}

/** Open `subscriptions/listen` and read its frames as they arrive. */
export async function listen(
  url: string,
  notifications: unknown,
  headers: Record<string, string> = {},
  id: string | number = 'listen:0',
): Promise<ListenStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...modernHeaders('subscriptions/listen'), ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications, _meta: envelope() } }),
  });
  const frames: any[] = [];
  const waiters: (() => void)[] = [];
  const ended = (async () => {
    if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
      frames.push(JSON.parse(await res.text()));
      return;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) frames.push(JSON.parse(data.slice(6)));
          for (const wake of waiters.splice(0)) wake();
        }
      }
    } catch {
      // aborted by the client
    }
  })().finally(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  let done = false;
  void ended.then(() => (done = true));
  return {
    status: res.status,
    frames,
    ended,
    async frame(count, ms = 5000) {
      const deadline = Date.now() + ms;
      while (frames.length < count) {
        if (done) throw new Error(`the stream ended after ${frames.length} frames, expected ${count}: ${JSON.stringify(frames)}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for frame ${count}; got ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return frames[count - 1];
    },
    close: () => abort.abort(),
  };
}
