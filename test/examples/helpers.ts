/**
 * Running an example of examples/ as its README says: its `start` script (`node --import tsx
 * server.ts`), in its own folder, on a free port (`PORT=0`), ready once it prints its
 * `listening on <url>` line; and the clients that judge it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SkillsClient, type SkillEntry } from '@skillmount/core/client';
import { startChildServer } from '../support/child-server.js';

export const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../examples');

/** Something that runs cleanups after a test: node:test's `t`, or `lastFirst(t)`. */
export interface Cleanups {
  after(fn: () => unknown): void;
}

/**
 * Cleanups for `t` that run last registered first, every one even when an earlier one fails: the
 * clients close, then the examples stop, then the servers they use (node:test runs `t.after` hooks
 * first registered first).
 */
export function lastFirst(t: Cleanups): Cleanups {
  const stack: (() => unknown)[] = [];
  t.after(async () => {
    const errors: unknown[] = [];
    for (const fn of stack.reverse())
      await Promise.resolve()
        .then(fn)
        .catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
  });
  return { after: (fn) => void stack.push(fn) };
}

export interface RunningExample {
  /** The MCP endpoint the example printed. */
  url: string;
  /** Stop it (SIGTERM) and check that it ended by itself, with code 0, as on Ctrl-C. */
  stop(): Promise<void>;
}

/** The arguments after `node` of an example's `start` script. */
function startArgs(name: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const [command, ...args] = (manifest.scripts?.start ?? '').split(' ');
  assert.equal(command, 'node', `examples/${name}: the start script runs node, so the test can run it as it is`);
  return args;
}

/**
 * Start `examples/<name>` with `env` on a free port, stopped after the test (`t.after`) even when
 * the test fails; a failed `stop()` check fails the test.
 */
export async function startExample(t: Cleanups, name: string, env: NodeJS.ProcessEnv = {}): Promise<RunningExample> {
  const child = await startChildServer(startArgs(name), /listening on (http:\/\/\S+)/, `examples/${name}`, 60_000, {
    cwd: path.join(EXAMPLES_DIR, name),
    env: { PORT: '0', ...env },
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= child.stop().then(() => {
      assert.deepEqual(child.exit(), { code: 0, signal: null }, `examples/${name} stops by itself on SIGTERM\n--- stderr\n${child.stderr()}`);
    }));
  t.after(stop);
  return { url: child.ready[1]!, stop };
}

/** An SDK v1 client and a SkillsClient on `url`, with `headers` on every request; closed after the test. */
export async function connectSkills(t: Cleanups, url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'examples-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  t.after(() => client.close());
  return { client, skills: new SkillsClient(client) };
}

/** The SKILL.md URIs a SkillsClient lists, sorted. */
export async function listedUris(skills: SkillsClient): Promise<string[]> {
  const { skills: entries } = await skills.list();
  return entries.map((entry) => entry.uri).sort();
}

/** The listed entry of the skill named `name` (its frontmatter's name); fails the test when none is. */
export async function skillNamed(skills: SkillsClient, name: string): Promise<SkillEntry> {
  const { skills: entries } = await skills.list();
  const entry = entries.find((candidate) => candidate.frontmatter.name === name);
  assert.ok(entry, `a skill named ${name} is listed (listed: ${entries.map((e) => e.uri).join(', ')})`);
  return entry;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'examples-test', version: '1.0.0' } },
};

/** A raw initialize POST to `url`, with `authorization` when given: what a client sends before it has a token. */
export function initializePost(url: string, authorization?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (authorization) headers.authorization = authorization;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) });
}
