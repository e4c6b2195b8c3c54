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
 */
import { tracingChannel } from 'node:diagnostics_channel';
import type { SkillClientInfo, SkillContext } from '../types.js';

/** The channel names, for `diagnostics_channel.tracingChannel(name)`. */
export const SKILLS_CHANNELS = Object.freeze({ request: 'skillmount:request', catalog: 'skillmount:catalog' } as const);

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
  /** Set on `error`: what the request failed with (a `SkillProtocolError` carries the JSON-RPC `code`). */
  error?: unknown;
}

/** What a `skillmount:catalog` trace carries. */
export interface CatalogBuildMessage {
  /** `load` (SkillCatalog.load) or `reload`. */
  kind: 'load' | 'reload';
  /** Set before `asyncEnd`: the skills served, and for a reload how many skills were added, removed or changed. */
  outcome?: { skills: number; added?: number; removed?: number; changed?: number };
  /** Set on `error`: why the load failed (the previous catalog keeps serving a reload). */
  error?: unknown;
}

export const requestChannel = tracingChannel<unknown, SkillRequestMessage>(SKILLS_CHANNELS.request);
export const catalogChannel = tracingChannel<unknown, CatalogBuildMessage>(SKILLS_CHANNELS.catalog);
