/**
 * Public types of `@skillmount/core/adapter`: the options every HTTP adapter (Fastify, Express, …)
 * shares, declared once. An adapter extends them with its framework's own options and passes its
 * request type for `context`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SkillCatalog } from '../catalog/catalog.js';
import type { AllowedHosts, RequestGuard } from '../http/types.js';
import type { CatalogOptions, InstructionsOption, SkillFiles, SkillReadHooks, SkillSource, SkillVisibility, SkillWarning } from '../types.js';

/** An MCP server from `@modelcontextprotocol/sdk` (v1): the high-level `McpServer` or the low-level `Server`. */
export type AnyMcpServer = McpServer | Server;

/**
 * The options every skillmount HTTP adapter takes. Give exactly one of `storage`, `catalog` or
 * `source`. The catalog options (`baseUri`, `prefix`, `pageSize`, `limits`, `strict`, `cacheHint`,
 * `concurrency`, `timeoutMs`, `cacheBytes`, `retainMs`, `trust`) apply only with `storage`, where the adapter loads the
 * catalog itself, except `strict`, which also applies with a custom `source` (an invalid entry
 * fails its `skills/list` page instead of being dropped with a warning); `onWarning` applies to
 * every kind of source.
 */
export interface SkillsAdapterOptions<Request> extends CatalogOptions, SkillReadHooks {
  /**
   * Where the skill files are, e.g. `fsStorage('./skills')`. The adapter loads a catalog from it,
   * and closes the storage when the app (Fastify) or the router (Express) closes.
   */
  storage?: SkillFiles;
  /** A catalog you loaded yourself with `SkillCatalog.load(...)`. */
  catalog?: SkillCatalog;
  /** Any `SkillSource`: generated, per-user or per-tenant skills. */
  source?: SkillSource;
  /**
   * Builds the app's own MCP server, with its tools, prompts and resources. Called once per
   * stateless request (skills requests are answered from the source without one), or once per
   * session; it must return a new, unconnected server each time.
   * Skills are attached to each one. Protocol 2026-07-28 requests for the app's tools, prompts and
   * resources are answered in process by a server from this factory too. Default: an empty `McpServer`.
   */
  server?: () => AnyMcpServer | Promise<AnyMcpServer>;
  /**
   * App fields merged into the `SkillContext` every `SkillSource` call receives (a user or tenant
   * id, for instance), after `auth` and `headers`. Runs once per HTTP request, before the MCP
   * exchange; it must return an object or a promise of one. Anything else (an array, `null`)
   * fails the request with a `TypeError` (`code: 'invalid-context'`), as an error it throws does.
   */
  context?: (request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * Per-request visibility, the supported way to gate skills per user or tenant:
   * `(entry, ctx) => boolean | Promise<boolean>`, where `ctx` holds `auth`, `headers` and the
   * fields `context` returned. Asked on every skills method, on both protocol eras; a skill it
   * does not return `true` for is answered exactly as one that does not exist (not listed, not
   * found by `skills/get`, its files not found by `resources/read`), and the fast path stays on.
   * With a source's own `visible`, both must allow a skill.
   */
  visible?: SkillVisibility;
  /**
   * `false` (default): stateless, a server per POST that is not a skills request (`server` is called for each; the
   * default server is reused, one POST at a time); GET and DELETE answer 405 with a
   * JSON-RPC error body. `true`: MCP sessions (`Mcp-Session-Id`), which also carry
   * `notifications/resources/list_changed` to connected clients.
   */
  sessions?: boolean;
  /** With `sessions: true`: close a session idle for this many milliseconds. Default 15 minutes. */
  sessionIdleMs?: number;
  /**
   * With `sessions: true`: sessions open at once. At the cap a new session replaces the least
   * recently used idle session (no request in flight, no open GET stream) of the client holding
   * the most sessions, never one of a client holding fewer than the newcomer would, so clients
   * from many addresses take slots from each other, not from a client with a few established
   * sessions. When all sessions of the biggest holder are busy, the next biggest gives way, then
   * the newcomer's own idle sessions; when none is idle, the new session is refused (503).
   * Default 1000.
   */
  maxSessions?: number;
  /**
   * With `sessions: true`: sessions one client holds at once. The client is `auth.clientId` when
   * the app's auth sets one on the request, else the client's address as the framework reports it
   * (Fastify's `request.ip`, Express's `req.ip`), which honours the framework's trusted-proxy
   * setting (`trustProxy`, `trust proxy`); behind a proxy without that setting every client shares
   * the proxy's address. At the cap a new session of that client replaces its least recently used
   * idle one; only when all of them are busy is it refused (429). Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * Protocol 2026-07-28: `subscriptions/listen` streams open at once, across all clients. Past it a
   * new stream is refused with JSON-RPC error -32603 (HTTP 200). Default 1024.
   */
  maxListenStreams?: number;
  /**
   * Protocol 2026-07-28: `subscriptions/listen` streams one client (the same client as for
   * `maxSessionsPerClient`) holds at once, so one client cannot take every stream. Past it the
   * client's new stream is refused with JSON-RPC error -32603 (HTTP 200) saying so. Default 32.
   */
  maxListenStreamsPerClient?: number;
  /**
   * Protocol 2026-07-28: a `subscriptions/listen` stream ends with its closing result after this
   * many milliseconds (less up to a tenth, so streams opened together do not end together), and
   * the client listens again. At most 2147483647. Default 3600000 (1 hour).
   */
  listenLifetimeMs?: number;
  /**
   * Whether the server's `instructions` name the skills each client may see, after the app's own
   * (both eras: the `initialize` answer, `server/discover`), for hosts that show instructions to
   * the model but do not speak the Skills extension. `'auto'` (default): for clients that did not
   * declare the extension; `true`: always; `false`: never; `{ maxBytes, intro }`: as `'auto'`,
   * with the section's budget (512 to 65536 UTF-8 bytes, default 2048) and first sentence.
   */
  instructions?: InstructionsOption;
  /**
   * With `storage` or `catalog` whose storage has a `watch()` hook: reload the catalog whenever the
   * storage reports a change. Default `false`.
   */
  watch?: boolean;
  /**
   * Publish the skills each request may see at `/.well-known/agent-skills/index.json` (GET and
   * HEAD), for the `skills` installer (`npx skills add https://your.site`): one-file skills as
   * their SKILL.md, others as a `.zip`, each with its `sha256:` digest. Answered at the origin
   * root and under the MCP path; as public as `context` and `visible` make it. Default `false`.
   */
  wellKnown?: boolean;
  /**
   * DNS-rebinding protection: the `Host` names (and `Origin` hosts, when sent) that are answered;
   * others get 403 with a JSON-RPC error body. A list of names, each with or without a port
   * (`['skills.example.com', 'localhost:3000']`); `true` for `localhost`, `127.0.0.1` and `[::1]`
   * only; `false` for no check. Default: localhost names only for requests that arrive on a
   * loopback address, no check on other addresses — an app reachable from other machines should
   * list its public names.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Browser hosts on another site: their origins (`['https://app.example.com']`, scheme, host and
   * port exactly as the browser sends them) pass the Origin check besides the `allowedHosts`
   * names; the Host check stays as it is. Use it with a CORS layer in front of the endpoint
   * (`@fastify/cors`, `cors`) that allows the same origins; `*` is refused. Default: none.
   */
  allowedOrigins?: readonly string[];
  /** Largest request body, in bytes. Larger bodies get 413 with a JSON-RPC error body. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Add the `read_skill` tool beside the app's tools, for hosts that show the model tools but not
   * resources: it reads a skill's SKILL.md by name, or any file of a visible skill by URI, with
   * the checks of `resources/read`. Costs a host one tool schema in context. A server of the app
   * that already has a tool named `read_skill` is refused. Default `false`.
   */
  tools?: boolean;
  /**
   * Serve each skill a request may see as an MCP prompt (named for the skill), beside the app's
   * prompts, for hosts that offer prompts as slash commands; `prompts/get` gives the SKILL.md as
   * an embedded resource. Costs a host one prompt listing per skill. Default `false`.
   */
  prompts?: boolean;
  /**
   * Add the `search_skills` tool beside the app's tools: the skills a request may see that match
   * a query, best first, as name, description and SKILL.md URI, through the same `visible` rules.
   * With `storage`, the catalog keeps a search index too (the catalog option `search`); a `catalog`
   * loaded without one, or a custom `source` without `search`, is ranked from its listed skills.
   * `{ text: true }` (with `storage`) also indexes each SKILL.md's text. A server of the app that
   * already has a tool named `search_skills` is refused. Default `false`.
   */
  search?: CatalogOptions['search'];
  /**
   * Longest time, in milliseconds, a request body the adapter reads may take to arrive. A body
   * still incomplete then gets 408 with a JSON-RPC error body and its connection is closed.
   * Default 30000.
   */
  bodyTimeout?: number;
}

/** Where the skills come from, after checking that exactly one was given. */
export type SkillsOrigin =
  | { kind: 'storage'; storage: SkillFiles; catalogOptions: CatalogOptions }
  | { kind: 'catalog'; catalog: SkillCatalog }
  | { kind: 'source'; source: SkillSource };

/** The shared options, checked, with defaults applied where the adapter needs no other. */
export interface CheckedAdapterOptions<Request> {
  origin: SkillsOrigin;
  server: (() => AnyMcpServer | Promise<AnyMcpServer>) | undefined;
  context: ((request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>) | undefined;
  visible: SkillVisibility | undefined;
  sessions: boolean;
  sessionIdleMs: number | undefined;
  maxSessions: number | undefined;
  maxSessionsPerClient: number | undefined;
  maxListenStreams: number | undefined;
  maxListenStreamsPerClient: number | undefined;
  listenLifetimeMs: number | undefined;
  watch: boolean;
  /** The `read_skill` tool is added to every server. */
  tools: boolean;
  /** The skills are served as prompts on every server. */
  prompts: boolean;
  /** The `search_skills` tool is added to every server. */
  search: boolean;
  /** Serve `/.well-known/agent-skills/`. */
  wellKnown: boolean;
  /** Set only when the app passed one, so core's defaults (the catalog's own `onWarning`) still apply otherwise. */
  onWarning: ((warning: SkillWarning) => void) | undefined;
  /** `onSkillLoad` and `onFileRead`, those the app passed: for `attach` and the endpoint. */
  reads: SkillReadHooks;
  /** With a custom `source`: an invalid entry fails its skills/list page instead of being dropped (with storage it is a catalog option). */
  strict: boolean | undefined;
  allowedHosts: AllowedHosts | undefined;
  /** Checked already; passed on to the endpoint as given. */
  instructions: InstructionsOption | undefined;
  allowedOrigins: readonly string[] | undefined;
  /** Host/Origin and body-limit checks, from `allowedHosts`, `allowedOrigins`, `bodyLimit` and `bodyTimeout`. */
  guard: RequestGuard;
}
