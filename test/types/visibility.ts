// Type tests for per-request visibility and the skills service: checked by tsc (see types.test.ts), never run.
import {
  JsonRpcErrorCode,
  attach,
  createSkillsEndpoint,
  type GetSkillResult,
  type ListSkillsResult,
  type ReadSkillFileResult,
  type SkillSource,
  type SkillsCallExtra,
  type SkillVisibility,
} from '@skillmount/core';
import { deferredSource, type SkillsAdapterOptions } from '@skillmount/core/adapter';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// visible: sync or async, on attach, the endpoint, an adapter and a source.
const byUser: SkillVisibility = (entry, ctx) => ctx.user === 'admin' || entry.frontmatter.name !== 'secret';
const byLookup: SkillVisibility = async (entry, ctx) => (await Promise.resolve([ctx.user])).includes(entry.frontmatter.name);
declare const server: McpServer;
declare const source: SkillSource;
attach(server, source, { visible: byUser });
const endpoint = createSkillsEndpoint({ source, attach: { visible: byLookup } });
const adapterOptions: SkillsAdapterOptions<unknown> = { source, visible: byUser };
const ownRule: SkillSource = { ...source, visible: (entry) => entry.uri.startsWith('skill://public/') };
// @ts-expect-error visible answers a boolean, not a list of skills
attach(server, source, { visible: () => ['skill://a/SKILL.md'] });

// The service: the skills methods as plain calls, typed results, the SDK's extra as the request.
declare const extra: SkillsCallExtra;
const listed: Promise<ListSkillsResult> = endpoint.service.list(undefined, extra);
const got: Promise<GetSkillResult> = endpoint.service.get('skill://a/SKILL.md');
const read: Promise<ReadSkillFileResult> = endpoint.service.read('skill://a/SKILL.md', { signal: AbortSignal.timeout(1000) });
// @ts-expect-error the URI is a string
endpoint.service.read(new URL('skill://a/SKILL.md'));
// deferredSource: a source to attach while the real one loads.
const later: SkillSource = deferredSource({ source: async () => source, baseUri: 'github://acme/skills/' });
// @ts-expect-error source is a function that resolves to the source, not the source itself
deferredSource({ source });
void later;
// JsonRpcErrorCode: named codes, read-only.
const notFound: -32602 = JsonRpcErrorCode.InvalidParams;
// @ts-expect-error the codes are read-only
JsonRpcErrorCode.InvalidParams = 1;
void notFound;
void adapterOptions;
void ownRule;
void listed;
void got;
void read;
