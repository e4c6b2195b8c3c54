/**
 * A skillmount `SkillSource` (a `SkillCatalog`, `tenantCatalogs(...)`, an app's own) as the SDK
 * v2's `SkillSource`, for `new SkillsExtension({ source })`. Every call goes through the skills
 * service skillmount's own server answers with, so the same rules hold: the `visible` rule, the
 * tenant of the request, entry checks, and the digest check before bytes go out. A file is sent
 * as text exactly when skillmount's own server sends it as text (its bytes are UTF-8).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { SkillReadResult as SdkV2ReadResult, SkillSource as SdkV2SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { SkillNotFoundError } from '../errors.js';
import { SkillHandlers } from '../server/handlers.js';
import { serviceOptions } from '../server/attach.js';
import { warningSink } from '../warnings/sink.js';
import { consoleWarning } from '../warnings/console.js';
import type { SkillContext, SkillSource, SkillVisibility, SkillWarning } from '../types.js';
import { skillContextOf, type SdkV2ContextFunction } from './context.js';

export interface SdkV2SourceOptions<C extends SkillContext = SkillContext> {
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
  /** Where refused entries and reads are reported. Default: the source's `warn`, else `console.warn`. */
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

/** The SDK v2's `SkillSource` over a skillmount source; `readDirectory` only when the source reads folders. */
export function sdkV2Source<C extends SkillContext = SkillContext>(source: SkillSource<C>, options: SdkV2SourceOptions<C> = {}): SdkV2SkillSource {
  if (options.context !== undefined && typeof options.context !== 'function') {
    throw new TypeError(`skillmount: sdkV2Source's context option must be a function (ctx) => fields, got ${typeof options.context}`);
  }
  const skills = source as unknown as SkillSource;
  const checked = serviceOptions({ strict: options.strict, visible: options.visible as SkillVisibility | undefined });
  const handlers = new SkillHandlers(skills, warningSink(skills, options.onWarning, consoleWarning), checked);
  const contextOf = (ctx: ServerContext) => skillContextOf(ctx, options.context);

  const adapted: SdkV2SkillSource = {
    async list(params, ctx) {
      const { skills: listed, nextCursor } = await handlers.list(params.cursor, await contextOf(ctx));
      const entries = listed as SdkV2Skill[];
      return nextCursor === undefined ? { skills: entries } : { skills: entries, nextCursor };
    },
    async get(uri, ctx) {
      const answer = await orMissing(handlers.get(uri, await contextOf(ctx)));
      return answer?.skill as SdkV2Skill | undefined;
    },
    async read(uri, ctx) {
      // A URI outside the source's base is not a skill file of this source.
      if (!handlers.serves(uri)) return undefined;
      const answer = await orMissing(handlers.readChecked(uri, await contextOf(ctx)));
      if (answer === undefined) return undefined;
      const { file, content } = answer;
      const mimeType = file.mimeType !== undefined ? { mimeType: file.mimeType } : {};
      // The encoding skillmount's own server chose: text for UTF-8 bytes, else the bytes for a base64 blob.
      return ('text' in content ? { text: content.text, ...mimeType } : { bytes: file.bytes, ...mimeType }) satisfies SdkV2ReadResult;
    },
    async listResources(ctx) {
      return handlers.listResources(await contextOf(ctx));
    },
  };
  if (typeof skills.readDirectory === 'function') {
    adapted.readDirectory = async (uri, params, ctx) => {
      const page = await orMissing(handlers.readDirectory(uri, params.cursor, await contextOf(ctx)));
      if (page === undefined) return undefined;
      return page.nextCursor === undefined ? { resources: page.resources } : { resources: page.resources, nextCursor: page.nextCursor };
    };
  }
  return adapted;
}
