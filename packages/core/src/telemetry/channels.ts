/**
 * skillmount's own events on `node:diagnostics_channel` tracing channels: free when nobody
 * subscribes (nothing is built unless a channel has subscribers), and no dependency. A
 * subscriber (an OpenTelemetry bridge, a metrics exporter, a test) sees each skills request an
 * MCP client made and each catalog load, with their outcome.
 *
 * - `skillmount:request`: one trace per skills request skillmount answers on either era
 *   (`skills/list`, `skills/get`, `resources/read`, `resources/directory/read`, `resources/list`
 *   and `server/discover`), with a `SkillRequestMessage` as context: `start` before the source is
 *   asked (its bound stores run around the answer), `end`, then `error` (with `error`) when the
 *   request fails, and `asyncStart`/`asyncEnd` once it is settled.
 * - `skillmount:catalog`: one trace per catalog load or reload, with a `CatalogBuildMessage`.
 * - `skillmount:tenant`: one trace per tenant load (a per-tenant source's first request for a
 *   tenant not in memory, or its reload), with a `TenantLoadMessage`.
 * - `skillmount:tenants` (a plain channel): a `TenantCacheMessage` each time a tenant's loaded
 *   skills are kept in memory or leave it.
 * - `skillmount:storage`: one trace per call a catalog makes to its storage (`list`, `read`,
 *   `listAll`, `treeToken`), with a `StorageCallMessage`.
 * - `skillmount:well-known` (a plain channel): a `WellKnownAnswerMessage` for each answer under
 *   `/.well-known/agent-skills/`, published in the request's own async context, so a subscriber
 *   can enrich the app's HTTP span (those requests are HTTP, not MCP).
 */
import { channel, tracingChannel } from 'node:diagnostics_channel';
import type { SkillClientInfo, SkillContext } from '../types.js';

/** The channel names, for `diagnostics_channel.tracingChannel(name)`. */
export const SKILLS_CHANNELS = Object.freeze({
  request: 'skillmount:request',
  catalog: 'skillmount:catalog',
  tenant: 'skillmount:tenant',
  tenants: 'skillmount:tenants',
  wellKnown: 'skillmount:well-known',
  storage: 'skillmount:storage',
} as const);

/** What a `skillmount:request` trace carries. Fields after `ctx` are set as the request is answered. */
export interface SkillRequestMessage {
  /** The MCP method: `skills/list`, `skills/get`, `resources/read`, `resources/directory/read`, `resources/list`, `server/discover`. */
  method: string;
  /** The protocol era: `2026-07-28`, or `2025-11-25` for it and every earlier version. */
  era: '2025-11-25' | '2026-07-28';
  /** The JSON-RPC id of the request, when the surface saw it. */
  requestId: string | number | undefined;
  /** The request's `params._meta` as the client sent it (trace context: `traceparent`, `tracestate`, `baggage`). Untrusted. */
  meta: Readonly<Record<string, unknown>> | undefined;
  /** The client as it named itself; see `SkillReadEvent.client`. */
  client: SkillClientInfo | undefined;
  /** The URI the request names (`skills/get`, `resources/read`, `resources/directory/read`). */
  uri: string | undefined;
  /** The request's context (`auth`, `headers`, `sessionId`, the app's fields). */
  ctx: SkillContext;
  /** The skill the request concerned, once known (`skills/get`, `resources/read`: the skill holding the file). */
  skill?: string;
  /** `resources/read`, once answered: the file's size in bytes. */
  bytes?: number;
  /** Set on `error`: what the request failed with (a `SkillProtocolError` carries the JSON-RPC `code`). */
  error?: unknown;
}

/** What a `skillmount:catalog` trace carries. */
export interface CatalogBuildMessage {
  /** `load` (SkillCatalog.load) or `reload`. */
  kind: 'load' | 'reload';
  /**
   * Set before `asyncEnd`: the skills served, the file bodies the build took from storage (as
   * `catalog.bodiesRead` counts them), and for a reload how many skills were added, removed or changed.
   */
  outcome?: { skills: number; bodiesRead: number; added?: number; removed?: number; changed?: number };
  /** Set on `error`: why the load failed (the previous catalog keeps serving a reload). */
  error?: unknown;
}

/** Why a tenant left memory: beyond `max`, idle for `idleMs`, taken out by `evict()`, replaced by a reload, or closed. */
export type EvictionReason = 'capacity' | 'idle' | 'evicted' | 'reloaded' | 'closed';

/** What a `skillmount:tenant` trace carries. */
export interface TenantLoadMessage {
  /** The tenant's key. Unbounded: keep it out of metric attributes. */
  tenant: string;
  /** Set on `error`: why the tenant could not be loaded (its requests get -32603). */
  error?: unknown;
}

/** What `skillmount:tenants` publishes. */
export interface TenantCacheMessage {
  /** `kept`: a tenant's skills are now held in memory; `evicted`: they left it. */
  change: 'kept' | 'evicted';
  /** The tenant's key. Unbounded: keep it out of metric attributes. */
  tenant: string;
  /** `evicted`: beyond `max`, idle for `idleMs`, the app's `evict()`, replaced by a reload, or closed. */
  reason?: EvictionReason;
  /** Tenants held in memory by this source after the change. */
  cached: number;
}

/** What `skillmount:well-known` publishes. */
export interface WellKnownAnswerMessage {
  /** The route template: `/.well-known/agent-skills/index.json`, `…/{name}/SKILL.md` or `…/{name}.zip`. */
  route: string;
  /** The skill a `SKILL.md` or archive answer is, by name. */
  skill?: string;
  /** The request's context. */
  ctx: SkillContext;
}

/** What a `skillmount:storage` trace carries. */
export interface StorageCallMessage {
  /** The storage's `kind` (`fs`, `s3`, `postgres`, `memory`), or `custom` for one that gives none. */
  storage: string;
  /** The `SkillFiles` method called (`listAllBatches`: one batch of its listing fetched). */
  operation: 'list' | 'read' | 'listAll' | 'listAllBatches' | 'treeToken';
  /** The path it was called with (`''` for the root, and for the others than `list` and `read`). */
  path: string;
  /** Set on `error`: what the call failed with. */
  error?: unknown;
}

export const requestChannel = tracingChannel<unknown, SkillRequestMessage>(SKILLS_CHANNELS.request);
export const catalogChannel = tracingChannel<unknown, CatalogBuildMessage>(SKILLS_CHANNELS.catalog);
export const tenantChannel = tracingChannel<unknown, TenantLoadMessage>(SKILLS_CHANNELS.tenant);
export const tenantCacheChannel = channel(SKILLS_CHANNELS.tenants);
export const wellKnownChannel = channel(SKILLS_CHANNELS.wellKnown);
export const storageChannel = tracingChannel<unknown, StorageCallMessage>(SKILLS_CHANNELS.storage);
