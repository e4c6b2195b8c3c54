/**
 * Public types of @skillmount/fastify. Everything a user names in their own code is declared here.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AllowedHosts, AttachedSkills, CatalogOptions, ReloadReport, SkillCatalog, SkillEntry, SkillFiles, SkillSource } from '@skillmount/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** An MCP server from `@modelcontextprotocol/sdk` (v1): the high-level `McpServer` or the low-level `Server`. */
export type AnyMcpServer = McpServer | Server;

/**
 * Options of `app.register(skillsPlugin, options)`. Give exactly one of `storage`, `catalog` or
 * `source`. The catalog options (`baseUri`, `prefix`, `pageSize`, `limits`, `strict`, `cacheHint`,
 * `concurrency`, `timeoutMs`) apply only with `storage`, where the plugin loads the catalog itself,
 * except `strict`, which also applies with `source` (an invalid entry fails its `skills/list` page
 * instead of being dropped with a warning); `onWarning` applies to every kind of source.
 */
export interface SkillsPluginOptions extends CatalogOptions {
  /** Where the skill files are, e.g. `fsStorage('./skills')`. The plugin loads a catalog from it while registering. */
  storage?: SkillFiles;
  /** A catalog you loaded yourself with `SkillCatalog.load(...)`. */
  catalog?: SkillCatalog;
  /** Any `SkillSource`: generated, per-user or per-tenant skills. */
  source?: SkillSource;
  /**
   * Route of the MCP Streamable HTTP endpoint. Default `'/mcp'`. `false` mounts no route: the app
   * keeps its own MCP route, calls `app.skills.attach(server)` there, and
   * `app.skills.handleModern(request, reply)` first to answer protocol 2026-07-28 requests.
   */
  path?: string | false;
  /**
   * Builds the app's own MCP server, with its tools, prompts and resources. Called once per
   * stateless request, or once per session; it must return a new, unconnected server each time.
   * Skills are attached to each one. Protocol 2026-07-28 requests for the app's tools, prompts and
   * resources are answered in process by a server from this factory too (with `path: false`,
   * through `app.skills.handleModern`). Default: an empty `McpServer`.
   */
  server?: () => AnyMcpServer | Promise<AnyMcpServer>;
  /**
   * App fields merged into the `SkillContext` every `SkillSource` call receives (a user or tenant
   * id, for instance). Runs once per HTTP request, before the MCP exchange; an error it throws
   * goes to Fastify's error handling, like an error from a hook.
   */
  context?: (request: FastifyRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * `false` (default): stateless, a fresh server per POST; GET and DELETE answer 405 with a
   * JSON-RPC error body. `true`: MCP sessions (`Mcp-Session-Id`), which also carry
   * `notifications/resources/list_changed` to connected clients.
   */
  sessions?: boolean;
  /** With `sessions: true`: close a session idle for this many milliseconds. Default 15 minutes. */
  sessionIdleMs?: number;
  /**
   * With `sessions: true`: sessions open at once. At the cap a new session replaces the least
   * recently used idle one (no request in flight, no open GET stream); only when every session is
   * busy is it refused (503). Default 1000.
   */
  maxSessions?: number;
  /**
   * With `sessions: true`: sessions one client holds at once. The client is `request.auth.clientId`
   * when your auth hook sets one, else the remote address (behind a proxy, every client shares the
   * proxy's: raise this or authenticate). At the cap a new session of that client replaces its
   * least recently used idle one; only when all of them are busy is it refused (429). Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * With `storage` or `catalog` whose storage has a `watch()` hook: reload the catalog whenever the
   * storage reports a change. Default `false`.
   */
  watch?: boolean;
  /**
   * DNS-rebinding protection: the `Host` names (and `Origin` hosts, when sent) the route answers;
   * others get 403 with a JSON-RPC error body. A list of names, each with or without a port
   * (`['skills.example.com', 'localhost:3000']`); `true` for `localhost`, `127.0.0.1` and `[::1]`
   * only; `false` for no check. Default: localhost names only for requests that arrive on a
   * loopback address, no check on other addresses — an app reachable from other machines should
   * list its public names.
   */
  allowedHosts?: AllowedHosts;
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
