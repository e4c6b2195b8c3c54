/**
 * The method table of the modern path: skills methods straight to the `SkillSource` (no server
 * per request), listen streams, and everything else to the app's own handlers.
 */
import { optionalCursor, paramsObject, requiredUri } from '../server/params.js';
import type { SkillHandlers } from '../server/handlers.js';
import { METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';
import type { SkillContext } from '../types.js';
import { resolvesToItself } from '../uri/resolved.js';
import type { ServerIdentity } from './bridge.js';
import type { ModernRequest } from './envelope.js';
import { METHOD_DISCOVER, METHOD_NOT_FOUND, ModernError, REMOVED_METHODS, SUPPORTED_VERSIONS } from './protocol.js';

type Result = Record<string, unknown>;

/** What a method handler may use besides its request. */
export interface DispatchTools {
  handlers: SkillHandlers;
  directoryRead: boolean;
  identity(): Promise<ServerIdentity>;
  /** The app's instructions with the skills section for this request's client (see the `instructions` option). */
  instructions(request: ModernRequest, ctx: SkillContext, own: string | undefined): Promise<string | undefined>;
  /** Answer through the app's own handlers. */
  bridge(request: ModernRequest): Promise<Result>;
  /**
   * The app's answer when its server answers this skills method with a handler of its own (its
   * own `resources/read`); undefined when the handlers `attach` installed would answer, so the
   * source answers directly.
   */
  appAnswer(request: ModernRequest): Promise<Result | undefined>;
}

type MethodHandler = (request: ModernRequest, ctx: SkillContext, tools: DispatchTools) => Promise<Result>;

// A Map, not an object literal: a method named "constructor" or "toString" must not find Object.prototype.
const skillsMethods = new Map<string, MethodHandler>(
  Object.entries({
    [METHOD_DISCOVER]: async (request, ctx, tools) => {
      const identity = await tools.identity();
      const { capabilities } = identity;
      const instructions = await tools.instructions(request, ctx, identity.instructions);
      return {
        ...(await tools.handlers.envelope(ctx)),
        supportedVersions: [...SUPPORTED_VERSIONS],
        capabilities,
        ...(instructions !== undefined ? { instructions } : {}),
      };
    },
    [METHOD_SKILLS_LIST]: async (request, ctx, tools) =>
      (await tools.appAnswer(request)) ?? tools.handlers.list(optionalCursor(request.params, METHOD_SKILLS_LIST), ctx),
    [METHOD_SKILLS_GET]: async (request, ctx, tools) =>
      (await tools.appAnswer(request)) ?? tools.handlers.get(requiredUri(request.params, METHOD_SKILLS_GET, "the skill's SKILL.md URI"), ctx),
    [METHOD_DIRECTORY_READ]: async (request, ctx, tools) => {
      if (!tools.directoryRead) throw methodNotFound(request.method);
      const answer = await tools.appAnswer(request);
      if (answer) return answer;
      const uri = requiredUri(request.params, METHOD_DIRECTORY_READ, 'a directory URI without a trailing slash');
      return tools.handlers.readDirectory(uri, optionalCursor(request.params, METHOD_DIRECTORY_READ), ctx);
    },
    'resources/read': async (request, ctx, tools) => {
      const params = paramsObject(request.params, 'resources/read');
      const uri = requiredUri(params, 'resources/read', 'a resource URI');
      // Files under the source's base URI (skill:// by default) come from the source itself; other URIs are the app's,
      // and so is a spelling McpServer refuses or respells before the skills see it (as on 2025-11-25): it answers those its way.
      if (!tools.handlers.serves(uri) || !resolvesToItself(uri)) return tools.bridge(request);
      return (await tools.appAnswer(request)) ?? ((await tools.handlers.read(uri, ctx, 'resources/read', params._meta)) as Result);
    },
  } satisfies Record<string, MethodHandler>),
);

/** The result of one checked modern request (without `_meta` serverInfo), or a thrown error. */
export function dispatch(request: ModernRequest, ctx: SkillContext, tools: DispatchTools): Promise<Result> {
  if (REMOVED_METHODS.has(request.method)) throw methodNotFound(request.method);
  const handler = skillsMethods.get(request.method);
  return handler ? handler(request, ctx, tools) : tools.bridge(request);
}

function methodNotFound(method: string): ModernError {
  return new ModernError(404, METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 100)} is not served on protocol 2026-07-28`);
}
