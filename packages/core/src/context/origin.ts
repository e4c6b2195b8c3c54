/**
 * Where a request came from, for the read hooks: its protocol era and the client as it named
 * itself. Kept beside the `SkillContext` (not in it: sources see only the app's fields), set by
 * each surface that builds a context, and passed down the async chain of a 2026-07-28 request so
 * that the app's server answering it in process (the read tool, the prompts) reports that era.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SkillClientInfo, SkillContext } from '../types.js';

export interface RequestOrigin {
  era: '2025-11-25' | '2026-07-28';
  client: SkillClientInfo | undefined;
  /** The MCP request this context answers, when it is a skills request (not a tool's or a prompt's read). */
  request?: { method: string; id: string | number | undefined; meta: Record<string, unknown> | undefined };
}

/** A client's own words, bounded: they reach the app's hooks and, often, its logs. */
const MAX_CLIENT_FIELD = 256;

const origins = new WeakMap<SkillContext, RequestOrigin>();
const modernRequest = new AsyncLocalStorage<RequestOrigin>();

/** `clientInfo` as a request or an `initialize` gave it, when it is one; fields cut to 256 characters. */
export function clientOf(info: unknown): SkillClientInfo | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || typeof version !== 'string') return undefined;
  return { name: name.slice(0, MAX_CLIENT_FIELD), version: version.slice(0, MAX_CLIENT_FIELD) };
}

/** Record where the request of `ctx` came from. */
export function setOrigin(ctx: SkillContext, origin: RequestOrigin): SkillContext {
  origins.set(ctx, origin);
  return ctx;
}

/** Where the request of `ctx` came from, when a surface said. */
export function originOf(ctx: SkillContext): RequestOrigin | undefined {
  return origins.get(ctx);
}

/** Run `fn`, the answer to one 2026-07-28 request, so that contexts built inside it know their era. */
export function runAsModern<T>(origin: RequestOrigin, fn: () => T): T {
  return modernRequest.run(origin, fn);
}

/** The 2026-07-28 request being answered now, when there is one. */
export function modernOrigin(): RequestOrigin | undefined {
  return modernRequest.getStore();
}
