/**
 * Public types of @skillmount/express.
 */
import type { Request, Response, Router } from 'express';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  AllowedHosts,
  AttachedSkills,
  CatalogOptions,
  ReloadReport,
  SkillCatalog,
  SkillEntry,
  SkillFiles,
  SkillSource,
} from '@skillmount/core';

/**
 * Options of `skillsMiddleware`. Give exactly one of `storage`, `catalog` or `source`.
 * The catalog options (`baseUri`, `prefix`, `pageSize`, `limits`, `strict`, `cacheHint`, `concurrency`,
 * `timeoutMs`) apply only with `storage`, except `strict`, which also applies with `source` (an
 * invalid entry fails its `skills/list` page instead of being dropped with a warning); `onWarning`
 * applies to all three.
 */
export interface SkillsMiddlewareOptions extends CatalogOptions {
  /** Where the skill files are, e.g. `fsStorage('./skills')`. The catalog is loaded from it in the background. */
  storage?: SkillFiles;
  /** A catalog you loaded yourself with `SkillCatalog.load(...)`. */
  catalog?: SkillCatalog;
  /** Any `SkillSource`: generated, per-user or `"dynamic"` skills. */
  source?: SkillSource;
  /** Your own MCP server factory, called for every stateless request or new session; skills are attached to each server. Default: an empty `McpServer`. */
  server?: () => McpServer | Server | Promise<McpServer | Server>;
  /** Per-request fields for your `SkillSource` (tenant, user, …), merged into its `SkillContext` after `auth` and `headers`. */
  context?: (req: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** `false` (default): stateless, a server per POST; GET and DELETE answer 405. `true`: MCP sessions, which carry `notifications/resources/list_changed`. */
  sessions?: boolean;
  /** Session mode: close a session idle for this many milliseconds. Default 15 minutes. */
  sessionIdleMs?: number;
  /**
   * Session mode: sessions open at once. At the cap a new session replaces the least recently
   * used idle one (no request in flight, no open GET stream); only when every session is busy is
   * it refused (503). Default 1000.
   */
  maxSessions?: number;
  /**
   * Session mode: sessions one client holds at once. The client is `req.auth.clientId` when your
   * auth middleware sets one, else the remote address (behind a proxy, every client shares the
   * proxy's: raise this or authenticate). At the cap a new session of that client replaces its
   * least recently used idle one; only when all of them are busy is it refused (429). Default 100.
   */
  maxSessionsPerClient?: number;
  /** Reload the catalog whenever the storage reports a change (`catalog.watch()`). Needs a storage with a `watch` hook. Default `false`. */
  watch?: boolean;
  /**
   * DNS-rebinding protection: the `Host` names (and `Origin` hosts, when sent) the router answers;
   * others get 403 with a JSON-RPC error body. A list of names, each with or without a port
   * (`['skills.example.com', 'localhost:3000']`); `true` for `localhost`, `127.0.0.1` and `[::1]`
   * only; `false` for no check. Default: localhost names only for requests that arrive on a
   * loopback address, no check on other addresses — an app reachable from other machines should
   * list its public names.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Largest request body, in bytes, the router reads itself (when no body parser ran before it);
   * a declared `Content-Length` over it is refused even then. Larger bodies get 413 with a
   * JSON-RPC error body. Default 1 MiB. An app-level `express.json()` applies its own limit first.
   */
  bodyLimit?: number;
  /**
   * Longest time, in milliseconds, a request body the router reads itself may take to arrive. A
   * body still incomplete then (trickled a byte at a time, say) gets 408 with a JSON-RPC error
   * body and its connection is closed. Default 30000. A body parser that runs before the router
   * (`express.json()`) has no deadline: set the server's `requestTimeout` and `headersTimeout`.
   */
  bodyTimeout?: number;
}

/** What `skillsMiddleware` returns: an Express router serving the MCP endpoint at its mount path, with lifecycle members. */
export interface SkillsRouter extends Router {
  /** Resolves once the catalog is loaded (at once for `catalog` and `source`); rejects with the load error. */
  readonly ready: Promise<SkillSource>;
  /** The catalog being served, once loaded; `undefined` for a custom `source`. */
  readonly catalog: SkillCatalog | undefined;
  /** The served skills' entries; empty until loaded, and for a custom `source`. */
  readonly entries: readonly SkillEntry[];
  /** Reload the catalog from storage (after a failed first load: load again). Rejects for a custom `source`. */
  reload(): Promise<ReloadReport>;
  /** Serve the skills on your own server, for your own MCP route. Call before `server.connect()`. */
  attach(server: McpServer | Server): AttachedSkills;
  /** Run `fn` (your `transport.handleRequest(...)`) with the `context` option applied to `req`. */
  run<T>(req: Request, fn: () => T): Promise<Awaited<T>>;
  /**
   * For your own MCP route (the router not mounted): when `req` speaks protocol 2026-07-28,
   * answer it (skills and your handlers, through the `server` option's factory) and resolve true;
   * otherwise resolve false without touching `req` or `res`, and answer it with your own code.
   */
  handleModern(req: Request, res: Response): Promise<boolean>;
  /** Close every session and stop watching. A storage or catalog you passed in stays open; a catalog loaded here is closed. */
  close(): Promise<void>;
}
