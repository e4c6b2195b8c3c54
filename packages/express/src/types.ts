/**
 * Public types of @skillmount/express.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AttachedSkills, ReloadReport, SkillCatalog, SkillEntry, SkillSource, SkillsHealth, SkillWarning } from '@skillmount/core';
import type { SkillsAdapterOptions } from '@skillmount/core/adapter';

/** A logger with pino's `warn(object, message)`: what the `logger` option takes. */
export interface SkillsLogger {
  warn(object: { warning: SkillWarning }, message: string): void;
}

/**
 * Options of `skillsMiddleware`: the options every skillmount adapter shares
 * (`SkillsAdapterOptions` from `@skillmount/core/adapter`, documented in core's README), with
 * Express's `Request` for `context`. Give exactly one of `storage`, `catalog` or `source`. The
 * catalog options (`baseUri`, `prefix`, `pageSize`, `limits`, `strict`, `cacheHint`, `concurrency`,
 * `timeoutMs`, `cacheBytes`, `retainMs`, `trust`) apply only with `storage`, where the catalog is loaded in the
 * background, except `strict`, which also applies with a custom `source`; `onWarning` applies to
 * all three. A `storage` is closed with the router's `close()`.
 */
export interface SkillsMiddlewareOptions extends SkillsAdapterOptions<Request> {
  /**
   * Every warning of the router: the catalog it loads from `storage` (skipped skills, ignored
   * files, refused reads), a failed load, failed requests, errors hidden from clients,
   * `modern-not-handled`, `context-not-applied`. Default: one `console.warn` line each.
   */
  onWarning?: (warning: SkillWarning) => void;
  /**
   * The app's logger, pino-shaped (`pino()`, pino-http's `logger`): every warning goes to
   * `logger.warn({ warning }, warning.message)` instead of the console, so a log query finds it by
   * `warning.code`. Give this or `onWarning`, not both. For a logger of another shape, pass
   * `onWarning: (w) => log.warn(w.message, { code: w.code })`.
   */
  logger?: SkillsLogger;
  /**
   * Session mode: sessions one client holds at once. The client is `req.auth.clientId` when your
   * auth middleware sets one, else `req.ip`, which honours the app's `trust proxy` setting (behind
   * a proxy without it, every client shares the proxy's address). At the cap a new session of that
   * client replaces its least recently used idle one; only when all of them are busy is it refused
   * (429). Default 100.
   */
  maxSessionsPerClient?: number;
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
  /** The catalog being served, once loaded (a `SkillCatalog` given as `source` included); `undefined` for a custom `source`. */
  readonly catalog: SkillCatalog | undefined;
  /** The served skills' entries; empty until loaded, and for a custom `source`. */
  readonly entries: readonly SkillEntry[];
  /** Reload the catalog from storage (after a failed first load: load again). Rejects for a custom `source`. */
  reload(): Promise<ReloadReport>;
  /** Serve the skills on your own server, for your own MCP route. Call before `server.connect()`. */
  attach(server: McpServer | Server): AttachedSkills;
  /**
   * Readiness, for a probe route of your own: `ready: false` with status `loading` while the
   * catalog loads, `failed` when its load failed (until `reload()` succeeds), `stopping` once
   * `close()` was called; `ready: true` with status `ready`, or `degraded` while the catalog's
   * last reload failed (the previous catalog keeps serving). See `SkillsHealth` in `@skillmount/core`.
   */
  health(): SkillsHealth;
  /** Run `fn` (your `transport.handleRequest(...)`) with the `context` option applied to `req`. */
  run<T>(req: Request, fn: () => T): Promise<Awaited<T>>;
  /**
   * For your own MCP route (the router not mounted): when `req` speaks protocol 2026-07-28,
   * answer it (skills and your handlers, through the `server` option's factory) and resolve true;
   * otherwise resolve false without touching `req` or `res`, and answer it with your own code.
   */
  handleModern(req: Request, res: Response): Promise<boolean>;
  /**
   * With `wellKnown: true`: middleware that answers GET and HEAD under `/.well-known/agent-skills/`
   * and passes every other request on. Mount it at the origin root, where `npx skills add
   * https://host` looks: `app.use(skills.wellKnown)`. (The router itself answers the same paths
   * under its mount path, where `npx skills add https://host/mcp` looks.) Without the option it
   * passes every request on.
   */
  readonly wellKnown: RequestHandler;
  /**
   * Close every session and stop watching. A `storage` you passed is the router's: it is closed too
   * (`storage.close()`, which ends a pool or client the storage created). A `catalog` or `source`
   * you passed stays open: close it yourself.
   */
  close(): Promise<void>;
}
