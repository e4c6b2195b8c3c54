/**
 * A skillmount `SkillSource` (a `SkillCatalog`, `tenantCatalogs(...)`, an app's own) as the SDK
 * v2's `SkillSource`, for `new SkillsExtension({ source })`. Every call goes through the skills
 * service skillmount's own server answers with, so the same rules hold: the `visible` rule, the
 * tenant of the request, entry checks, and the digest check before bytes go out. A file is sent
 * as text exactly when skillmount's own server sends it as text (its bytes are UTF-8). The SDK v2
 * sends a thrown error's message to the client, so unexpected failures (a storage's, with its
 * paths) reach it only as a plain "Internal error", as on skillmount's own server.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { SkillReadResult as SdkV2ReadResult, SkillSource as SdkV2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { SkillNotFoundError } from '../errors.js';
import { SkillHandlers } from '../server/handlers.js';
import { clientSafe } from '../sdk/internal-errors.js';
import { serviceOptions } from '../server/attach.js';
import { warningSink } from '../warnings/sink.js';
import { consoleWarning } from '../warnings/console.js';
import type { SkillContext, SkillReadHooks, SkillSource, SkillVisibility, SkillWarning } from '../types.js';
import { clientOf, setOrigin, type RequestOrigin } from '../context/origin.js';
import { META_CLIENT_INFO, META_PROTOCOL_VERSION, MODERN_VERSION } from '../modern/protocol.js';
import { skillContextOf, type SdkV2ContextFunction } from './context.js';

export interface SdkV2SourceOptions<C extends SkillContext = SkillContext> extends SkillReadHooks {
  /**
   * The app's own context fields for a request, from the SDK v2's `ServerContext` (for `visible`
   * and a tenant key, say). Added after `auth`, `headers`, `sessionId` and `signal`, which come
   * from the request. Default: none.
   */
  context?: SdkV2ContextFunction;
  /** Per-request visibility, besides the source's own `visible` (both must allow a skill); as `attach`'s option. */
  visible?: SkillVisibility<C>;
  /** Fail a whole `skills/list` page for one invalid entry from a custom source instead of dropping it. Default false. */
  strict?: boolean;
  /** Where refused entries and reads, and unexpected failures, are reported. Default: the source's `warn`, else `console.warn`. */
  onWarning?: (warning: SkillWarning) => void;
}

/** An entry as the SDK v2 types it: the same JSON, with index signatures ours leave out. */
type SdkV2Skill = NonNullable<Awaited<ReturnType<SdkV2SkillSource['get']>>>;

/** `undefined` for what is not served (or hidden), as the SDK v2's `SkillSource` answers a miss. */
async function orMissing<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof SkillNotFoundError) return undefined;
    throw error;
  }
}

/**
 * The SDK v2's `SkillSource` over a skillmount source; `readDirectory` only when the source reads
 * folders. Every call answers through skillmount's skills service (the `visible` rules, entry and
 * digest checks); UTF-8 files are read as text, others as bytes. Most apps want `sdkV2Skills`,
 * which also passes the URI base and a catalog's cache hint.
 *
 * @example
 * ```ts
 * import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
 * import { SkillCatalog } from '@skillmount/core';
 * import { sdkV2Source } from '@skillmount/core/sdk-v2';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * const skills = new SkillsExtension({ source: sdkV2Source(catalog, { visible: (entry) => !entry.uri.startsWith('skill://internal/') }) });
 * ```
 *
 * @throws {TypeError} when the `context` option is given and is not a function. Its methods never
 * throw a storage error at the SDK v2: an unexpected failure reaches the client as "Internal
 * error" (`-32603`), its cause goes to `onWarning`.
 */
export function sdkV2Source<C extends SkillContext = SkillContext>(source: SkillSource<C>, options: SdkV2SourceOptions<C> = {}): SdkV2SkillSource {
  if (options.context !== undefined && typeof options.context !== 'function') {
    throw new TypeError(`skillmount: sdkV2Source's context option must be a function (ctx) => fields, got ${typeof options.context}`);
  }
  const skills = source as unknown as SkillSource;
  const checked = serviceOptions({
    strict: options.strict,
    visible: options.visible as SkillVisibility | undefined,
    ...(options.onSkillLoad !== undefined ? { onSkillLoad: options.onSkillLoad } : {}),
    ...(options.onFileRead !== undefined ? { onFileRead: options.onFileRead } : {}),
  });
  const warn = warningSink(skills, options.onWarning, consoleWarning);
  const handlers = new SkillHandlers(skills, warn, checked);

  /** Run one method with the request's `SkillContext`; an unexpected failure reaches the client only as "Internal error". */
  const answer = async <T>(method: string, ctx: ServerContext, work: (skillCtx: SkillContext) => Promise<T>): Promise<T> => {
    try {
      return await work(setOrigin(await skillContextOf(ctx, options.context), originOf(ctx, method)));
    } catch (error) {
      // A cancelled request gets no answer from the SDK v2: nothing to hide, nothing to report.
      if (ctx.mcpReq.signal.aborted) throw error;
      throw clientSafe(error, method, warn);
    }
  };

  const adapted: SdkV2SkillSource = {
    list: (params, ctx) =>
      answer('skills/list', ctx, async (skillCtx) => {
        const { skills: listed, nextCursor } = await handlers.list(params.cursor, skillCtx);
        const entries = listed as SdkV2Skill[];
        return nextCursor === undefined ? { skills: entries } : { skills: entries, nextCursor };
      }),
    get: (uri, ctx) => answer('skills/get', ctx, async (skillCtx) => (await orMissing(handlers.get(uri, skillCtx)))?.skill as SdkV2Skill | undefined),
    read: (uri, ctx) =>
      answer('resources/read', ctx, async (skillCtx) => {
        // A URI outside the source's base is not a skill file of this source.
        if (!handlers.serves(uri)) return undefined;
        const read = await orMissing(handlers.readChecked(uri, skillCtx, 'resources/read', ctx.mcpReq._meta));
        if (read === undefined) return undefined;
        const { file, content } = read;
        const mimeType = file.mimeType !== undefined ? { mimeType: file.mimeType } : {};
        // The encoding skillmount's own server chose: text for UTF-8 bytes, else the bytes for a base64 blob.
        return ('text' in content ? { text: content.text, ...mimeType } : { bytes: file.bytes, ...mimeType }) satisfies SdkV2ReadResult;
      }),
    listResources: (ctx) => answer('resources/list', ctx, (skillCtx) => handlers.listResources(skillCtx)),
  };
  if (typeof skills.readDirectory === 'function') {
    adapted.readDirectory = (uri, params, ctx) =>
      answer('resources/directory/read', ctx, async (skillCtx) => {
        const page = await orMissing(handlers.readDirectory(uri, params.cursor, skillCtx));
        if (page === undefined) return undefined;
        return page.nextCursor === undefined ? { resources: page.resources } : { resources: page.resources, nextCursor: page.nextCursor };
      });
  }
  return adapted;
}

/**
 * Where an SDK v2 request came from, for the read hooks and the diagnostics channels: 2026-07-28
 * when its `_meta` envelope names that protocol version (and then the client it names), else
 * 2025-11-25, whose client the SDK v2 keeps to itself (from `initialize`).
 */
function originOf(ctx: ServerContext, method: string): RequestOrigin {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const version = envelope?.[META_PROTOCOL_VERSION];
  const modern = typeof version === 'string' && version >= MODERN_VERSION;
  return {
    era: modern ? MODERN_VERSION : '2025-11-25',
    client: modern ? clientOf(envelope?.[META_CLIENT_INFO]) : undefined,
    request: { method, id: ctx.mcpReq.id, meta: ctx.mcpReq._meta as Record<string, unknown> | undefined },
  };
}
