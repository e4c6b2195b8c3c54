import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SkillNotFoundError, invalidParams } from '../errors.js';
import { parseUri, skillUriKey } from '../uri/canonical.js';
import { consoleWarning } from '../warnings/console.js';
import {
  afterConnect,
  installedHandler,
  isMcpServer,
  lowLevelServer,
  seamMissing,
  wrapInstalledHandler,
  type AnyServer,
  type RawHandler,
} from '../sdk/seams.js';
import { contextFromExtra, hasSkillContext, type ExtraLike } from '../context/store.js';
import { OptionError } from '../option-error.js';
import {
  GetSkillRequestSchema,
  ListSkillsRequestSchema,
  LooseListResourcesRequestSchema,
  LooseReadResourceRequestSchema,
  ReadDirectoryRequestSchema,
} from '../protocol/schemas.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST, SKILLS_EXTENSION_ID } from '../protocol/constants.js';
import type { InstructionsOption, ReadSkillFileResult, SkillContext, SkillReadHooks, SkillSource, SkillVisibility, SkillWarning } from '../types.js';
import { checkReadHooks } from './read-events.js';
import { clientOf, modernOrigin, setOrigin } from '../context/origin.js';
import { optionalCursor, paramsObject, requiredUri } from './params.js';
import { SkillHandlers, type SkillHandlersOptions } from './handlers.js';
import { warningSink } from '../warnings/sink.js';
import { optionFail } from '../option-checks.js';
import { checkInstructionsOption } from './instructions-option.js';
import { nameSkillsAtInitialize } from './instructions-initialize.js';
import { installReadTool, type ReadToolDeps } from './read-tool.js';
import { installSearchTool, type SearchToolDeps } from './search-tool.js';
import { installSkillPrompts } from './skill-prompts.js';
import type { AppRead } from './skill-read.js';

export interface AttachOptions extends SkillReadHooks {
  /** Where refused entries and reads are reported. Default: the source's `warn`, else `console.warn`. */
  onWarning?: (warning: SkillWarning) => void;
  /**
   * A custom source only (a `SkillCatalog` checked its entries when it loaded): fail a whole
   * `skills/list` page with `-32603` when one entry on it breaks the structural rules. Default
   * `false`: the entry is dropped from the page, and `onWarning` hears of it once.
   */
  strict?: boolean;
  /**
   * Low-level `Server` only. `'auto'` (default) installs `resources/list` and `resources/read`
   * handlers; `'manual'` installs none, for apps that already have their own and call
   * `listResources` / `readResource` of the returned handle from them.
   */
  resources?: 'auto' | 'manual';
  /**
   * Per-request visibility: `(entry, ctx) => boolean | Promise<boolean>`, asked on every skills
   * method; a skill it hides is answered as one that does not exist. With the source's own
   * `visible`, both must allow a skill. See `SkillVisibility`.
   */
  visible?: SkillVisibility;
  /**
   * Called when a skills request reaches the source outside `runWithSkillContext` (so without the
   * app's per-request fields). Adapters with a `context` option use it to say that their
   * `run(req, fn)` was left out of an app's own route.
   */
  onContextMissing?: () => void;
  /**
   * Whether the server's `instructions` (its `initialize` answer) name the skills the client may
   * see, after the app's own instructions, for hosts that show instructions to the model but do
   * not speak the Skills extension. `'auto'` (default): for clients that did not declare the
   * extension; `true`: always; `false`: never; `{ maxBytes, intro }`: as `'auto'`, with the
   * section's budget (default 2048 UTF-8 bytes) and first sentence. See `InstructionsOption`.
   */
  instructions?: InstructionsOption;
  /**
   * Add the `read_skill` tool, for hosts that show the model tools but not resources: it reads a
   * skill's SKILL.md by name or any file of a visible skill by URI, through the same checks as
   * `resources/read` (and through the app's own `resources/read` when it has one). Costs a host
   * one tool schema in context. A server that already has a tool named `read_skill` is refused.
   * Default `false`.
   */
  tools?: boolean;
  /**
   * Serve each skill the request may see as an MCP prompt (named for the skill, by its path when
   * two share a name), for hosts that offer prompts as slash commands; `prompts/get` gives the
   * SKILL.md as an embedded resource. Joined to the app's own prompts (an app prompt of the same
   * name wins). Costs a host one prompt listing per skill. Default `false`.
   */
  prompts?: boolean;
  /**
   * Add the `search_skills` tool: the skills the request may see that match a query, best first
   * (name, description and SKILL.md URI; `limit` and `cursor` page them), through the same
   * `visible` rules as `skills/list`. A `SkillCatalog` loaded with its `search` option answers from
   * its index; any other source from its own `search`, else from its listed skills. A server that
   * already has a tool named `search_skills` is refused. Default `false`.
   */
  search?: boolean;
}

/** What `attach` returns: the skills' resource handlers, for apps that compose them by hand. */
export interface AttachedSkills {
  /** SKILL.md entries for `resources/list`. */
  listResources(extra?: ExtraLike): Promise<{ uri: string; name: string; description?: string; mimeType: string }[]>;
  /** The `resources/read` result for a URI under the source's base (`skill://` by default), or undefined for any other. */
  readResource(uri: string, extra?: ExtraLike): Promise<ReadSkillFileResult | undefined>;
}

/** What attach() did to each server, so a second call can return it or refuse cleanly. */
const attached = new WeakMap<Server, { source: SkillSource; handle: AttachedSkills }>();

/**
 * The request handlers attach() installed on each server, by method. The endpoint answers a
 * method without the server only while the server still uses these: a handler the app installed
 * instead (its own `resources/read` that gates reads) must see every such request.
 */
const installedBySkills = new WeakMap<Server, ReadonlyMap<string, RawHandler>>();

/** Servers whose skills are served as prompts too: their clients hear of prompt list changes. */
const servingPrompts = new WeakSet<Server>();

/** The methods attach() answers; a server that already answers one of them is refused. */
const SKILL_METHODS = [METHOD_SKILLS_LIST, METHOD_SKILLS_GET, METHOD_DIRECTORY_READ];

/**
 * Serve a skill source on an SDK v1 `McpServer` or low-level `Server`. Call before `connect()`:
 * it declares `resources` and the `io.modelcontextprotocol/skills` extension, answers `skills/list`,
 * `skills/get` and (when the source can) `resources/directory/read`, serves `skill://` files through
 * `resources/read` and lists each SKILL.md in `resources/list`. The app's own tools and resources
 * keep working.
 *
 * Safe to repeat: a second call with the same source returns the same handle and changes nothing.
 * A second, different source, a server that already answers a skills method, or (for a `Server`
 * in `'auto'` mode) one that already answers `resources/list` or `resources/read`, is refused with
 * an error before anything on the server changes.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { SkillCatalog, attach } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * const server = new McpServer({ name: 'my-server', version: '1.0.0' });
 * attach(server, catalog); // before server.connect()
 * ```
 * @throws TypeError when `source` is not a skill source or `server` is not an SDK v1 `McpServer` or `Server`.
 * @throws {@link OptionError} when an option is invalid, or (`conflicting-options`) when `tools` or `search` would add a
 * `read_skill` or `search_skills` tool the server already has.
 * @throws Error when the server is already connected, already serves another source, already answers a
 * skills method, or (a `Server` in `'auto'` mode) already answers `resources/list` or `resources/read`.
 */
export function attach(server: AnyServer, source: SkillSource, options: AttachOptions = {}): AttachedSkills {
  return attachSkills(server, source, options, true);
}

/**
 * `attach`, for callers that connect the server themselves: with `followConnect` false, list
 * changes are not followed on connect, and the caller calls `followListChanges` after its own
 * `connect()` (the public seam), instead of attach wrapping `connect`. `service`: the one skills
 * service of an endpoint, shared by every server it builds and by its other paths.
 */
export function attachSkills(server: AnyServer, source: SkillSource, options: AttachOptions, followConnect: boolean, service?: SkillHandlers): AttachedSkills {
  if (!source || typeof source.list !== 'function' || typeof source.get !== 'function' || typeof source.read !== 'function') {
    throw new TypeError('skillmount: attach(server, source) needs a SkillSource (a SkillCatalog, or an object with list, get and read)');
  }
  const isMcp = !!server && typeof server === 'object' && isMcpServer(server);
  const low: Server | undefined = server && typeof server === 'object' ? lowLevelServer(server) : undefined;
  if (!low || typeof low.setRequestHandler !== 'function' || typeof low.registerCapabilities !== 'function') {
    throw new TypeError('skillmount: attach(server, …) needs an McpServer or Server from @modelcontextprotocol/sdk');
  }
  const earlier = attached.get(low);
  if (earlier) {
    if (earlier.source === source) return earlier.handle;
    throw new Error(
      'skillmount: attach(server, source): this server already serves another skill source; one server serves one source. ' +
        'Combine the catalogs into one SkillSource (for example tenants by context), or attach the other source to its own server.',
    );
  }
  if (low.transport) {
    throw new Error(
      'skillmount: attach() must run before server.connect(): capabilities are fixed once connected. ' +
        'For a server per request, attach to each one before connecting it.',
    );
  }
  const taken = SKILL_METHODS.find((method) => !canHandle(low, method));
  if (taken) {
    throw new Error(
      `skillmount: attach(server, source): this server already has its own ${taken} handler, so skillmount would replace it. ` +
        `Remove the app's ${SKILL_METHODS.join(' / ')} handlers and let attach() answer them, or do not attach skills to this server.`,
    );
  }
  const manual = !isMcp && options.resources === 'manual';
  if (!isMcp && !manual && !(canHandle(low, 'resources/read') && canHandle(low, 'resources/list'))) {
    throw new Error(
      'skillmount: this Server already handles resources/list or resources/read. Attach with { resources: "manual" } and call ' +
        'listResources() / readResource(uri, extra) of the handle attach() returns from your own handlers.',
    );
  }

  const checked = serviceOptions(options);
  const surfaces = surfaceOptions(options);

  const warn = warningSink(source, options.onWarning, consoleWarning);
  const contextOf = contextReader(options.onContextMissing, low);
  const handlers = service ?? new SkillHandlers(source, warn, checked);
  const directoryRead = typeof source.readDirectory === 'function';
  const listResources = async (extra?: ExtraLike) => handlers.listResources(contextOf(extra, 'resources/list'));
  const readResource = async (uri: string, extra?: ExtraLike) =>
    handlers.serves(uri) ? handlers.read(uri, contextOf(extra, 'resources/read'), 'resources/read', extra?._meta) : undefined;

  // The app's own resources/read, asked at each read: the tool and the prompts read through it when it has one.
  const appRead: AppRead = () => {
    if (manual) return installedHandler(low, 'resources/read') || 'unknown';
    if (answersAsAttached(low, 'resources/read')) return undefined;
    return installedHandler(low, 'resources/read') || undefined;
  };
  const surfaceDeps = { handlers, appRead, contextOf, warn };
  // Before anything else changes: a tool name the app already uses is refused here.
  const removeTool = installTools(server, isMcp, low, surfaces, surfaceDeps);

  if (isMcp) {
    // First, because it is the step McpServer may refuse (a template already named "skills"),
    // and it refuses before changing anything. A resource template is the public way to add
    // resources beside the app's own on an McpServer.
    try {
      (server as McpServer).registerResource(
        'skills',
        new ResourceTemplate(`${handlers.base.uri}{+path}`, { list: async (extra) => ({ resources: await listResources(extra) }) }),
        {},
        async (uri, _variables, extra) => (await handlers.read(uri.href, contextOf(extra, 'resources/read'), 'resources/read', extra._meta)) as never,
      );
    } catch (error) {
      removeTool();
      throw new Error(
        `skillmount: attach(server, source) could not add the skill:// resource template "skills" to this McpServer: ${(error as Error).message}. ` +
          'Rename an app resource template named "skills", and register resources through McpServer rather than setRequestHandler.',
        { cause: error },
      );
    }
  }

  low.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: directoryRead ? { directoryRead: true } : {} } } as never);
  low.setRequestHandler(ListSkillsRequestSchema, async (request, extra) => {
    const params = paramsObject(request.params, METHOD_SKILLS_LIST);
    return (await handlers.list(optionalCursor(params, METHOD_SKILLS_LIST), contextOf(extra, METHOD_SKILLS_LIST))) as never;
  });
  low.setRequestHandler(GetSkillRequestSchema, async (request, extra) => {
    const params = paramsObject(request.params, METHOD_SKILLS_GET);
    const uri = requiredUri(params, METHOD_SKILLS_GET, "the skill's SKILL.md URI");
    return (await handlers.get(uri, contextOf(extra, METHOD_SKILLS_GET))) as never;
  });
  if (directoryRead) {
    low.setRequestHandler(ReadDirectoryRequestSchema, async (request, extra) => {
      const params = paramsObject(request.params, METHOD_DIRECTORY_READ);
      const uri = requiredUri(params, METHOD_DIRECTORY_READ, 'a directory URI without a trailing slash');
      return (await handlers.readDirectory(uri, optionalCursor(params, METHOD_DIRECTORY_READ), contextOf(extra, METHOD_DIRECTORY_READ))) as never;
    });
  }

  nameSkillsInInstructions(low, handlers, contextOf, warn);
  if (isMcp) guardResourceParams(low, handlers, warn);
  else if (!manual) installResourceHandlers(low, listResources, readResource);
  if (surfaces.prompts) {
    installSkillPrompts(server, isMcp, low, surfaceDeps);
    servingPrompts.add(low);
  }

  if (followConnect && typeof source.onListChanged === 'function') {
    if (!afterConnect(low, (transport) => followListChanges(server, source, transport))) {
      seamMissing(
        warn,
        'server-connect',
        'clients of this server are not told when the skill list changes (notifications/resources/list_changed); ' + 'they see changes when they list again',
      );
    }
  }
  const handle: AttachedSkills = { listResources, readResource };
  attached.set(low, { source, handle });
  installedBySkills.set(low, handlersNow(low, [...SKILL_METHODS, 'resources/read', 'resources/list']));
  return handle;
}

/**
 * Add the tools `surfaces` asks for (`read_skill`, `search_skills`) to `server`; returns how to take
 * them back. A name the app already uses is refused before the other tool stays behind.
 */
function installTools(
  server: AnyServer,
  isMcp: boolean,
  low: Server,
  surfaces: { tools: boolean; search: boolean },
  deps: Omit<SearchToolDeps, 'appList'> & ReadToolDeps,
): () => void {
  const removeReadTool = surfaces.tools ? installReadTool(server as McpServer | Server, isMcp, low, deps) : undefined;
  let removeSearchTool: (() => void) | undefined;
  if (surfaces.search) {
    // The app's own skills/list, when it answers that method itself: the search ranks what it lists.
    const appList = () => {
      const own = installedHandler(low, METHOD_SKILLS_LIST);
      return own && !answersAsAttached(low, METHOD_SKILLS_LIST) ? own : undefined;
    };
    try {
      removeSearchTool = installSearchTool(server as McpServer | Server, isMcp, low, { ...deps, appList });
    } catch (error) {
      removeReadTool?.();
      throw error;
    }
  }
  return () => {
    removeReadTool?.();
    removeSearchTool?.();
  };
}

/**
 * The options of `attach` that the skills service takes (`strict`, `visible`, `instructions`),
 * checked; `instructions` given apart (an endpoint's own option) takes the place of `options.instructions`.
 */
export function serviceOptions(options: AttachOptions, instructions = options.instructions): SkillHandlersOptions {
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new OptionError('invalid-type', 'strict', `must be true or false, got ${typeof options.strict}`);
  }
  if (options.visible !== undefined && typeof options.visible !== 'function') {
    throw new OptionError('invalid-type', 'visible', `must be a function (entry, ctx) => boolean | Promise<boolean>, got ${typeof options.visible}`);
  }
  const fail = optionFail('skillmount');
  // Both checked now, though one wins: attach() on each server of an endpoint checks attach's again.
  if (instructions !== options.instructions) checkInstructionsOption(options.instructions, fail);
  return { strict: options.strict, visible: options.visible, instructions: checkInstructionsOption(instructions, fail), reads: checkReadHooks(options) };
}

/** The surfaces attach adds besides the skills methods (`tools`, `prompts`, `search`), checked. */
export function surfaceOptions(
  options: Pick<AttachOptions, 'tools' | 'prompts' | 'search'>,
  packageName?: string,
): { tools: boolean; prompts: boolean; search: boolean } {
  for (const name of ['tools', 'prompts', 'search'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new OptionError('invalid-type', name, `must be true or false, got ${typeof options[name]}`, packageName);
    }
  }
  return { tools: options.tools === true, prompts: options.prompts === true, search: options.search === true };
}

/** The context of a skills request; `missing` hears of one that runs outside `runWithSkillContext`. */
function contextReader(missing: (() => void) | undefined, low: Server): (extra: ExtraLike | undefined, method?: string) => SkillContext {
  return (extra, method) => {
    if (missing && !hasSkillContext()) missing();
    // A 2026-07-28 request answered in process by this server is of that era, whatever its initialize said.
    const { era, client } = modernOrigin() ?? { era: '2025-11-25' as const, client: clientOf(low.getClientVersion()) };
    const request = method === undefined ? undefined : { method, id: extra?.requestId, meta: extra?._meta };
    return setOrigin(contextFromExtra(extra), { era, client, ...(request ? { request } : {}) });
  };
}

/**
 * The skills `low`'s initialize answer names in its instructions (the `instructions` option; an
 * endpoint's service carries the endpoint's, attach's own the one given to it), listed as the
 * server's `skills/list` answers: the app's own handler, when it set one after attach, decides
 * what the section names, as it decides the list.
 */
function nameSkillsInInstructions(
  low: Server,
  handlers: SkillHandlers,
  contextOf: (extra: ExtraLike | undefined) => SkillContext,
  warn: (warning: SkillWarning) => void,
): void {
  if (handlers.instructions.when === 'off') return;
  const listFor = (extra: ExtraLike | undefined) => async (cursor: string | undefined) => {
    const own = installedHandler(low, METHOD_SKILLS_LIST);
    if (own && !answersAsAttached(low, METHOD_SKILLS_LIST)) return own({ method: METHOD_SKILLS_LIST, params: cursor === undefined ? {} : { cursor } }, extra);
    return handlers.list(cursor, contextOf(extra));
  };
  nameSkillsAtInitialize(low, handlers.instructions, listFor, warn);
}

/** The handlers `low` has now for `methods` (those it has). */
function handlersNow(low: Server, methods: string[]): Map<string, RawHandler> {
  const now = new Map<string, RawHandler>();
  for (const method of methods) {
    const handler = installedHandler(low, method);
    if (handler) now.set(method, handler);
  }
  return now;
}

/**
 * Whether `server` answers `method` with the handler attach() installed, so answering the request
 * from the source gives what the server would. False when the app installed its own handler for
 * it (before attach with `resources: 'manual'`, or after), when there is none, or when this SDK
 * release does not let skillmount tell (seam `request-handler-map`).
 */
export function answersAsAttached(server: AnyServer, method: string): boolean {
  const low = lowLevelServer(server);
  const ours = installedBySkills.get(low)?.get(method);
  return ours !== undefined && installedHandler(low, method) === ours;
}

/** Whether `method` has no handler on `low` yet (the SDK's public check). */
function canHandle(low: Server, method: string): boolean {
  try {
    low.assertCanSetRequestHandler(method);
    return true;
  } catch {
    return false;
  }
}

function installResourceHandlers(low: Server, listResources: AttachedSkills['listResources'], readResource: AttachedSkills['readResource']) {
  low.registerCapabilities({ resources: { listChanged: true } });
  // Loose schemas: the SDK's strict ones would turn `{ uri: 42 }` into -32603; bad params get -32602.
  low.setRequestHandler(LooseListResourcesRequestSchema, async (request, extra) => {
    optionalCursor(paramsObject(request.params, 'resources/list'), 'resources/list');
    return { resources: await listResources(extra) };
  });
  low.setRequestHandler(LooseReadResourceRequestSchema, async (request, extra) => {
    const uri = requiredUri(paramsObject(request.params, 'resources/read'), 'resources/read', 'a resource URI');
    const result = await readResource(uri, extra);
    if (!result) throw new SkillNotFoundError(`Resource ${uri} not found`, uri);
    return result as never;
  });
}

/**
 * McpServer parses `resources/list` and `resources/read` with the SDK's strict schemas, so
 * `{ uri: 42 }` or a string that is not a URL would reach the client as -32603. Check the params
 * first and answer -32602. This wraps McpServer's installed handlers (seam
 * `request-handler-map`); without it, McpServer's own checks stay and `warn` hears it once.
 */
function guardResourceParams(low: Server, skills: SkillHandlers, warn: (warning: SkillWarning) => void): void {
  const read = wrapInstalledHandler(low, 'resources/read', (read) => (request, extra) => {
    const uri = requiredUri(paramsObject(request.params, 'resources/read'), 'resources/read', 'a resource URI');
    if (!URL.canParse(uri)) throw invalidParams(`resources/read: params.uri is not a valid URI: ${uri.slice(0, 200)}`, { uri });
    const problem = skills.serves(uri) ? respelledBy(uri) : undefined;
    if (problem) throw new SkillNotFoundError(`Resource ${uri} not found (${problem})`, uri);
    return read(request, extra);
  });
  const list = wrapInstalledHandler(low, 'resources/list', (list) => (request, extra) => {
    optionalCursor(paramsObject(request.params, 'resources/list'), 'resources/list');
    return list(request, extra);
  });
  if (!read || !list) {
    seamMissing(
      warn,
      'request-handler-map',
      "McpServer's own checks answer resources/read and resources/list: malformed params get -32603 instead of -32602, " +
        'and a skill:// URI with dot segments (skill://a/x/../SKILL.md) is served as the file it resolves to instead of being refused',
    );
  }
}

/**
 * Why McpServer would serve a `skill://` URI as another URI than it spells, or undefined. It
 * resolves `skill://a/refs/../SKILL.md` to `skill://a/SKILL.md` (and drops an empty userinfo,
 * `skill://@a/…`) before the resource template sees it; such spellings are refused like any
 * unknown file, as `skills/get` and `resources/directory/read` refuse them.
 */
function respelledBy(uri: string): string | undefined {
  const spelled = parseUri(uri);
  if (!spelled.ok) return spelled.error;
  const resolved = parseUri(new URL(uri).href);
  if (!resolved.ok || skillUriKey(resolved.segments) !== skillUriKey(spelled.segments)) return 'the URI resolves to another path than it spells';
  return undefined;
}

/**
 * While `server` is connected to `transport` (call right after `connect()`), forward the
 * source's list changes as `notifications/resources/list_changed`; stop when the transport
 * closes, so servers built per request leave nothing behind.
 */
export function followListChanges(server: AnyServer, source: SkillSource, transport: Transport): void {
  if (typeof source.onListChanged !== 'function') return;
  const resources = isMcpServer(server) ? () => server.sendResourceListChanged() : () => lowLevelServer(server).sendResourceListChanged();
  // The skills' prompts change with the skills.
  const prompts = servingPrompts.has(lowLevelServer(server)) ? () => lowLevelServer(server).sendPromptListChanged() : undefined;
  const notify = async () => {
    await resources();
    await prompts?.();
  };
  // connect() runs inside the opening request, so its context is the session's.
  const opening = contextFromExtra(undefined);
  const unsubscribe = source.onListChanged(() => {
    Promise.resolve()
      .then(notify)
      .catch(() => undefined); // not connected any more, or no stream to send on: nothing to tell
  }, opening);
  const closed = transport.onclose;
  transport.onclose = () => {
    unsubscribe();
    closed?.();
  };
}
