import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SkillNotFoundError, invalidParams } from '../errors.js';
import { parseUri, skillUriKey } from '../uri/canonical.js';
import { consoleWarning } from '../catalog/options.js';
import { contextFromExtra, type ExtraLike } from '../context/store.js';
import {
  GetSkillRequestSchema,
  ListSkillsRequestSchema,
  LooseListResourcesRequestSchema,
  LooseReadResourceRequestSchema,
  ReadDirectoryRequestSchema,
} from '../protocol/schemas.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST, SKILLS_EXTENSION_ID } from '../protocol/constants.js';
import type { SkillSource, SkillWarning } from '../types.js';
import { optionalCursor, paramsObject, requiredUri } from './params.js';
import { SkillHandlers, type ReadResourceResultLike } from './handlers.js';
import { warningSink } from './warn-once.js';

export interface AttachOptions {
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
}

/** What `attach` returns: the skills' resource handlers, for apps that compose them by hand. */
export interface AttachedSkills {
  /** SKILL.md entries for `resources/list`. */
  listResources(extra?: ExtraLike): Promise<{ uri: string; name: string; description?: string; mimeType: string }[]>;
  /** The `resources/read` result for a URI under the source's base (`skill://` by default), or undefined for any other. */
  readResource(uri: string, extra?: ExtraLike): Promise<ReadResourceResultLike | undefined>;
}

type AnyServer = McpServer | Server;

/**
 * Serve a skill source on an SDK v1 `McpServer` or low-level `Server`. Call before `connect()`:
 * it declares `resources` and the `io.modelcontextprotocol/skills` extension, answers `skills/list`,
 * `skills/get` and (when the source can) `resources/directory/read`, serves `skill://` files through
 * `resources/read` and lists each SKILL.md in `resources/list`. The app's own tools and resources
 * keep working.
 */
export function attach(server: AnyServer, source: SkillSource, options: AttachOptions = {}): AttachedSkills {
  if (!source || typeof source.list !== 'function' || typeof source.get !== 'function' || typeof source.read !== 'function') {
    throw new TypeError('skillmount: attach(server, source) needs a SkillSource (a SkillCatalog, or an object with list, get and read)');
  }
  const isMcp = isMcpServer(server);
  const low: Server = isMcp ? (server as McpServer).server : (server as Server);
  if (!low || typeof low.setRequestHandler !== 'function' || typeof low.registerCapabilities !== 'function') {
    throw new TypeError('skillmount: attach(server, …) needs an McpServer or Server from @modelcontextprotocol/sdk');
  }
  if (low.transport) {
    throw new Error('skillmount: attach() must run before server.connect(): capabilities are fixed once connected. For a server per request, attach to each one before connecting it.');
  }
  if (options.strict !== undefined && typeof options.strict !== 'boolean') {
    throw new TypeError(`skillmount: attach() option "strict" must be true or false, got ${typeof options.strict}`);
  }
  const warn = warningSink(source, options.onWarning, consoleWarning);
  const handlers = new SkillHandlers(source, warn, { strict: options.strict });
  const directoryRead = typeof source.readDirectory === 'function';

  low.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: directoryRead ? { directoryRead: true } : {} } } as never);

  low.setRequestHandler(ListSkillsRequestSchema, async (request, extra) => {
    const params = paramsObject(request.params, METHOD_SKILLS_LIST);
    return (await handlers.list(optionalCursor(params, METHOD_SKILLS_LIST), contextFromExtra(extra))) as never;
  });
  low.setRequestHandler(GetSkillRequestSchema, async (request, extra) => {
    const params = paramsObject(request.params, METHOD_SKILLS_GET);
    const uri = requiredUri(params, METHOD_SKILLS_GET, "the skill's SKILL.md URI");
    return (await handlers.get(uri, contextFromExtra(extra))) as never;
  });
  if (directoryRead) {
    low.setRequestHandler(ReadDirectoryRequestSchema, async (request, extra) => {
      const params = paramsObject(request.params, METHOD_DIRECTORY_READ);
      const uri = requiredUri(params, METHOD_DIRECTORY_READ, 'a directory URI without a trailing slash');
      return (await handlers.readDirectory(uri, optionalCursor(params, METHOD_DIRECTORY_READ), contextFromExtra(extra))) as never;
    });
  }

  const listResources = async (extra?: ExtraLike) => handlers.listResources(contextFromExtra(extra));
  const readResource = async (uri: string, extra?: ExtraLike) =>
    handlers.serves(uri) ? handlers.read(uri, contextFromExtra(extra)) : undefined;

  if (isMcp) {
    // A resource template is the public way to add resources beside the app's own on an McpServer.
    (server as McpServer).registerResource(
      'skills',
      new ResourceTemplate(`${handlers.base.uri}{+path}`, { list: async (extra) => ({ resources: await listResources(extra) }) }),
      {},
      async (uri, _variables, extra) => (await handlers.read(uri.href, contextFromExtra(extra))) as never,
    );
    guardResourceParams(low, handlers);
  } else if (options.resources !== 'manual') {
    installResourceHandlers(low, listResources, readResource);
  }

  followListChanges(low, source, isMcp ? () => (server as McpServer).sendResourceListChanged() : () => low.sendResourceListChanged());
  return { listResources, readResource };
}

function isMcpServer(server: AnyServer): server is McpServer {
  if (server instanceof McpServer) return true;
  // Another copy of the SDK: recognise McpServer by its shape.
  const candidate = server as unknown as Partial<McpServer>;
  return typeof candidate.registerResource === 'function' && typeof candidate.server === 'object';
}

function installResourceHandlers(low: Server, listResources: AttachedSkills['listResources'], readResource: AttachedSkills['readResource']) {
  try {
    low.assertCanSetRequestHandler('resources/read');
    low.assertCanSetRequestHandler('resources/list');
  } catch {
    throw new Error(
      'skillmount: this Server already handles resources/list or resources/read. Attach with { resources: "manual" } and call ' +
        'listResources() / readResource(uri, extra) of the handle attach() returns from your own handlers.',
    );
  }
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

type RawHandler = (request: { params?: unknown }, extra: unknown) => Promise<unknown>;

/**
 * McpServer parses `resources/list` and `resources/read` with the SDK's strict schemas, so
 * `{ uri: 42 }` or a string that is not a URL would reach the client as -32603. Check the params
 * first and answer -32602. This wraps entries of the SDK's handler map, which is not public API:
 * when it is not there, McpServer's own behaviour stays.
 */
function guardResourceParams(low: Server, skills: SkillHandlers): void {
  const map = (low as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(map instanceof Map)) return;
  const handlers = map as Map<string, RawHandler>;
  const read = handlers.get('resources/read');
  if (read) {
    handlers.set('resources/read', (request, extra) => {
      const uri = requiredUri(paramsObject(request.params, 'resources/read'), 'resources/read', 'a resource URI');
      if (!URL.canParse(uri)) throw invalidParams(`resources/read: params.uri is not a valid URI: ${uri.slice(0, 200)}`, { uri });
      const problem = skills.serves(uri) ? respelledBy(uri) : undefined;
      if (problem) throw new SkillNotFoundError(`Resource ${uri} not found (${problem})`, uri);
      return read(request, extra);
    });
  }
  const list = handlers.get('resources/list');
  if (list) {
    handlers.set('resources/list', (request, extra) => {
      optionalCursor(paramsObject(request.params, 'resources/list'), 'resources/list');
      return list(request, extra);
    });
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
 * While the server is connected, forward the source's list changes as
 * `notifications/resources/list_changed`; stop when its transport closes, so servers built per
 * request leave nothing behind.
 */
function followListChanges(low: Server, source: SkillSource, notify: () => void | Promise<void>) {
  if (typeof source.onListChanged !== 'function') return;
  const connect = low.connect.bind(low);
  low.connect = async (transport: Transport) => {
    await connect(transport);
    // connect() runs inside the opening request, so its context is the session's.
    const opening = contextFromExtra(undefined);
    const unsubscribe = source.onListChanged!(() => {
      Promise.resolve()
        .then(notify)
        .catch(() => undefined); // not connected any more, or no stream to send on: nothing to tell
    }, opening);
    const closed = transport.onclose;
    transport.onclose = () => {
      unsubscribe();
      closed?.();
    };
  };
}

