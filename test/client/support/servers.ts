/** Servers and clients for the skills client tests: ours, the official SDK v2 one, and both clients. */
import type http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { McpServer as V2McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { SkillCatalog, createSkillsEndpoint, type CatalogOptions, type SkillSource } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { listenHttp } from '../../support/apps.js';
import { serveFetchHandler } from './v2-http.js';

export interface Served {
  url: string;
  /** JSON-RPC methods received, in order. */
  methods: string[];
  close(): Promise<void>;
}

/** Read a JSON body and note its JSON-RPC method(s). */
export async function readJsonBody(req: http.IncomingMessage, methods: string[]): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  for (const message of [body].flat()) if (typeof message?.method === 'string') methods.push(message.method);
  return body;
}

/**
 * Our endpoint (stateless) over a source, on node:http; `search` adds the search_skills tool, `wellKnown`
 * /.well-known/agent-skills at the origin. `reads`: the URI of each resources/read, in order.
 */
export async function serveOurs(source: SkillSource, options: { search?: boolean; wellKnown?: boolean } = {}): Promise<Served & { reads: string[] }> {
  const methods: string[] = [];
  const reads: string[] = [];
  const endpoint = createSkillsEndpoint({ source, ...options });
  const web = await listenHttp(async (req, res) => {
    const body = req.method === 'POST' ? await readJsonBody(req, methods) : undefined;
    for (const message of [body].flat() as ({ method?: string; params?: { uri?: string } } | undefined)[]) {
      if (message?.method === 'resources/read') reads.push(String(message.params?.uri));
    }
    await endpoint.handle(req, res, body).catch(() => undefined);
  });
  return {
    url: web.url,
    methods,
    reads,
    close: async () => {
      await endpoint.close();
      await web.close();
    },
  };
}

/** Our catalog of a folder, served. */
export async function serveOurFolder(root: string, options: CatalogOptions = {}): Promise<Served & { reads: string[]; catalog: SkillCatalog }> {
  const catalog = await SkillCatalog.load(fsStorage(root), { onWarning: () => {}, ...options });
  return { ...(await serveOurs(catalog)), catalog };
}

/** The official SDK v2 server (`loadSkills` + `createMcpHandler`), on node:http. */
export async function serveV2Folder(root: string, options: { pageSize?: number } = {}) {
  const catalog = await loadSkills(root, { onWarning: () => {}, ...options });
  const handler = createMcpHandler(() => {
    const mcp = new V2McpServer({ name: 'v2-skills', version: '1.0.0' });
    catalog.attach(mcp);
    return mcp;
  });
  return { ...(await serveFetchHandler(handler)), catalog };
}

/** An SDK v1 client connected over Streamable HTTP. */
export async function connectV1(url: string): Promise<Client> {
  const client = new Client({ name: 'skills-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** An SDK v2 client (2025-11-25, as v1 servers speak). */
export async function connectV2(url: string): Promise<V2Client> {
  const client = new V2Client({ name: 'skills-host-v2', version: '1.0.0' });
  await client.connect(new V2Transport(new URL(url)));
  return client;
}

export const TRICKY_SKILL_MD = [
  '---',
  'name: tricky-names',
  'description: Files whose names need percent-encoding.',
  'license: MIT',
  'metadata:',
  '  reviewed: yes',
  '  draft: no',
  '  enabled: on',
  '---',
  '# Tricky names',
  '',
  'Read [the FAQ](references/Q&A.md) and [the notes](references/read me ü.md#top).',
  '',
].join('\n');

/** A temporary skills folder with names that must be percent-encoded in URIs. */
export function trickySkillsFolder(): { root: string; remove(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'skills-client-'));
  const skill = path.join(root, 'tricky-names');
  mkdirSync(path.join(skill, 'references'), { recursive: true });
  writeFileSync(path.join(skill, 'SKILL.md'), TRICKY_SKILL_MD);
  writeFileSync(path.join(skill, 'references', 'Q&A.md'), '# Questions & answers\n');
  writeFileSync(path.join(skill, 'references', 'read me ü.md'), '# Notes with a space and ü\n');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
