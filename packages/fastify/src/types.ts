/**
 * Public types of @skillmount/fastify. Everything a user names in their own code is declared here.
 */
import type { AttachedSkills, ReloadReport, SkillCatalog, SkillEntry, SkillSource, SkillsHealth, SkillWarning } from '@skillmount/core';
import type { AnyMcpServer, SkillsAdapterOptions } from '@skillmount/core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type { AnyMcpServer };

/**
 * Options of `app.register(skillsPlugin, options)`: the options every skillmount adapter shares
 * (`SkillsAdapterOptions` from `@skillmount/core/adapter`, documented in core's README), with
 * Fastify's request for `context`, plus `path`. Give exactly one of `storage`, `catalog` or
 * `source`. The catalog options (`baseUri`, `prefix`, `pageSize`, `limits`, `strict`, `cacheHint`,
 * `concurrency`, `timeoutMs`, `cacheBytes`, `retainMs`, `trust`) apply only with `storage`, where the plugin loads the
 * catalog itself while registering (and closes the storage with the app), except `strict`, which
 * also applies with a custom `source`; `onWarning` applies to every kind of source.
 */
export interface SkillsPluginOptions extends SkillsAdapterOptions<FastifyRequest> {
  /**
   * Route of the MCP Streamable HTTP endpoint. Default `'/mcp'`. `false` mounts no route: the app
   * keeps its own MCP route, calls `app.skills.attach(server)` there, and
   * `app.skills.handleModern(request, reply)` first to answer protocol 2026-07-28 requests.
   */
  path?: string | false;
  /**
   * App fields merged into the `SkillContext` every `SkillSource` call receives (a user or tenant
   * id, for instance). Runs once per HTTP request, before the MCP exchange; an error it throws
   * goes to Fastify's error handling, like an error from a hook. It must return an object of
   * fields: anything else (an array, `null`) fails the request with a `TypeError` (`code:
   * 'invalid-context'`) through the same error handling.
   */
  context?: (request: FastifyRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * Every warning of the plugin: the catalog it loads from `storage` (skipped skills, ignored
   * files, refused reads), failed requests, errors hidden from clients, `modern-not-handled`,
   * `context-not-applied`, `no-request-timeout`. Default: the app's logger,
   * `app.log.warn({ warning }, warning.message)`.
   */
  onWarning?: (warning: SkillWarning) => void;
  /**
   * With `sessions: true`: sessions one client holds at once. The client is `request.auth.clientId`
   * when your auth hook sets one, else `request.ip`, which honours Fastify's `trustProxy` (behind a
   * proxy without it, every client shares the proxy's address). At the cap a new session of that
   * client replaces its least recently used idle one; only when all of them are busy is it refused
   * (429). Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * Largest request body, in bytes, on the MCP route (it overrides the app's `bodyLimit` there).
   * Larger bodies get 413 with a JSON-RPC error body. Default 1 MiB.
   */
  bodyLimit?: number;
  /**
   * Longest time, in milliseconds, a POST body on the MCP route may take to arrive. A body still
   * incomplete then (trickled a byte at a time, say) gets 408 with a JSON-RPC error body and its
   * connection is closed. Default 30000. Fastify has no such limit of its own unless the server
   * sets `requestTimeout` (and `connectionTimeout` for idle connections): set those too.
   */
  bodyTimeout?: number;
}

/** What the plugin adds to the app as `app.skills`. */
export interface SkillsDecoration {
  /** The source every skills request is answered from. */
  readonly source: SkillSource;
  /** The catalog, when the skills come from `storage` or `catalog`; `undefined` for a custom `source`. */
  readonly catalog: SkillCatalog | undefined;
  /** Every served skill's entry (frozen); an empty array when the source is not a catalog. */
  readonly entries: readonly SkillEntry[];
  /**
   * Reload the catalog from storage, all or nothing (on failure the old catalog keeps serving and
   * the promise rejects). Connected session clients get `notifications/resources/list_changed`
   * when the list changed. Throws when the source is not a catalog.
   */
  reload(): Promise<ReloadReport>;
  /** Serve the skills on a server the app built itself (call before `server.connect()`). */
  attach(server: AnyMcpServer): AttachedSkills;
  /**
   * Readiness, for a probe route of the app's own: `ready: true` with status `ready`, or
   * `degraded` while the catalog's last reload failed (the previous catalog keeps serving; with
   * `watch`, the next reload that succeeds makes it `ready` again); `ready: false`, status
   * `stopping`, from the moment `app.close()` begins. See `SkillsHealth` in `@skillmount/core`.
   */
  health(): SkillsHealth;
  /**
   * Run `fn` (typically `transport.handleRequest(...)` in the app's own MCP route) with the
   * `context` option applied to `request`, so skills handlers see the app's fields and auth.
   */
  run<T>(request: FastifyRequest, fn: () => T | PromiseLike<T>): Promise<T>;
  /**
   * For the app's own MCP route (`path: false`): when `request` speaks protocol 2026-07-28, answer
   * it (skills and the app's handlers, through the `server` option's factory) and resolve true;
   * otherwise resolve false without touching the reply, and let the app's code answer as before.
   */
  handleModern(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Agent Skills served over MCP by `@skillmount/fastify`. */
    skills: SkillsDecoration;
  }
}
