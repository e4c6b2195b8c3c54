/**
 * Per-request server setup, as a stateless endpoint does it for every POST: a new server with the
 * skills attached. Timed at two catalog sizes: the cost must not grow with the catalog.
 */
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { SkillCatalog, attach } from '@skillmount/core';
import { now } from '../measure.js';
import type { SeededStore } from '../stores/store.js';

export interface AttachResult {
  size: string;
  /** Microseconds per new server + attach: ours as the endpoints build it (the SDK v1 default options). */
  ours: number;
  /** Ours with the server given one shared JSON Schema validator (`jsonSchemaValidator`) instead of a new one each time. */
  oursSharedValidator: number;
  theirs: number;
}

const quiet = { onWarning: () => {} };
// The SDK v1 Server builds an Ajv instance per server unless handed one: most of a per-request server's cost.
const validator = new AjvJsonSchemaValidator();

function perCall(repeat: number, fn: () => void): number {
  for (let i = 0; i < repeat / 10; i++) fn(); // warm-up
  const start = now();
  for (let i = 0; i < repeat; i++) fn();
  return ((now() - start) * 1000) / repeat;
}

export async function attachCase(store: SeededStore, repeat: number): Promise<AttachResult> {
  const files = store.adapter();
  try {
    const ours = await SkillCatalog.load(files, quiet);
    const theirs = await SkillsExtension.load(files, quiet);
    return {
      size: store.size.label,
      ours: perCall(repeat, () => attach(new McpServer({ name: 'bench', version: '1.0.0' }), ours)),
      oursSharedValidator: perCall(repeat, () => attach(new McpServer({ name: 'bench', version: '1.0.0' }, { jsonSchemaValidator: validator }), ours)),
      theirs: perCall(repeat, () => theirs.attach(new McpServerV2({ name: 'bench', version: '1.0.0' }))),
    };
  } finally {
    await store.release(files);
  }
}
