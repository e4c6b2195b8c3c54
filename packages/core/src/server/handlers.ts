import { isCatalogBuiltHere } from '../catalog/catalog.js';
import { sha256Digest } from '../bytes/digest.js';
import { encodeContent, verifiedContent } from '../bytes/verified.js';
import { changedFile, internalError } from '../errors.js';
import { entryProblems } from '../entry/validate.js';
import { DEFAULT_CACHE_HINT } from '../protocol/constants.js';
import { canonicalUri } from '../uri/canonical.js';
import type { CacheHint, SkillContext, SkillEntry, SkillSource, SkillWarning } from '../types.js';

/** What is wrong with a cache hint from a source the catalog did not check, or undefined. */
function cacheHintProblem(hint: unknown): string | undefined {
  if (typeof hint !== 'object' || hint === null) return `${String(hint)}, not an object`;
  const { ttlMs, cacheScope } = hint as Partial<CacheHint>;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) return `ttlMs ${String(ttlMs)}, not a non-negative integer`;
  if (cacheScope !== 'public' && cacheScope !== 'private') return `cacheScope ${JSON.stringify(cacheScope) ?? 'undefined'}, not "public" or "private"`;
  return undefined;
}

export interface ReadResourceResultLike {
  contents: ({ uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string })[];
  [key: string]: unknown;
}

/**
 * The extension's request logic, independent of how it is wired to a server: asks the source,
 * refuses to put anything invalid on the wire, and adds the result envelope.
 */
export class SkillHandlers {
  // Entries from a SkillCatalog this copy of core built were validated then; anything else is checked per request.
  readonly #trusted: boolean;

  constructor(
    private readonly source: SkillSource,
    private readonly warn: (warning: SkillWarning) => void,
  ) {
    this.#trusted = isCatalogBuiltHere(source);
  }

  /** `resultType` and the cache fields every result carries. */
  envelope(ctx: SkillContext): { resultType: 'complete' } & CacheHint {
    const hint = this.source.cacheHint?.(ctx) ?? DEFAULT_CACHE_HINT;
    const problem = cacheHintProblem(hint);
    if (problem) {
      this.warn({ code: 'invalid-cache-hint', message: `the skill source's cacheHint() returned ${problem}; nothing was sent. Return { ttlMs: <integer ≥ 0>, cacheScope: 'public' | 'private' }` });
      throw internalError("The server's skill source gave an invalid cache hint");
    }
    return { resultType: 'complete', ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
  }

  #checkEntry(entry: SkillEntry, where: string): void {
    if (this.#trusted) return;
    const problems = entryProblems(entry);
    if (problems.length === 0) return;
    const uri = typeof entry?.uri === 'string' ? entry.uri : undefined;
    this.warn({ code: 'invalid-entry', ...(uri ? { uri } : {}), message: `${where}: the skill source returned an invalid entry, not sent: ${problems.join('; ')}` });
    throw internalError(`The server's skill source returned an invalid entry${uri ? ` for ${uri}` : ''}`);
  }

  async list(cursor: string | undefined, ctx: SkillContext) {
    const page = await this.source.list(cursor === undefined ? {} : { cursor }, ctx);
    const seen = new Set<string>();
    // A catalog's pages were checked when it was built (valid, one entry per URI): nothing to redo per request.
    for (const entry of this.#trusted ? [] : page.skills) {
      this.#checkEntry(entry, 'skills/list');
      const key = canonicalUri(entry.uri) ?? entry.uri;
      if (seen.has(key)) {
        this.warn({ code: 'invalid-entry', uri: entry.uri, message: 'skills/list: the skill source returned the same skill twice on one page, not sent' });
        throw internalError(`The server's skill source listed ${entry.uri} twice`);
      }
      seen.add(key);
    }
    return { ...this.envelope(ctx), skills: page.skills, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  async get(uri: string, ctx: SkillContext) {
    const skill = await this.source.get(uri, ctx);
    this.#checkEntry(skill, 'skills/get');
    if (!this.#trusted && canonicalUri(skill.uri) !== canonicalUri(uri)) {
      this.warn({ code: 'invalid-entry', uri, message: `skills/get: the skill source answered ${uri} with the entry of ${skill.uri}, not sent` });
      throw internalError(`The server's skill source answered ${uri} with another skill`);
    }
    return { ...this.envelope(ctx), skill };
  }

  async readDirectory(uri: string, cursor: string | undefined, ctx: SkillContext) {
    const page = await this.source.readDirectory!(uri, cursor === undefined ? {} : { cursor }, ctx);
    return { ...this.envelope(ctx), resources: page.resources, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  async listResources(ctx: SkillContext) {
    return (await this.source.listResources?.(ctx)) ?? [];
  }

  /** Read one file and check it against what was published before a byte goes out. */
  async read(uri: string, ctx: SkillContext): Promise<ReadResourceResultLike> {
    const file = await this.source.read(uri, ctx);
    const published = file.published;
    // Bytes a catalog checked when it cached them are neither hashed nor encoded again.
    const checked = published && published !== 'dynamic' ? verifiedContent(file.bytes, published) : undefined;
    if (published && published !== 'dynamic' && !checked) {
      if (file.bytes.byteLength !== published.size || sha256Digest(file.bytes) !== published.digest) {
        const { warning, error } = changedFile(file.uri);
        this.warn(warning);
        throw error;
      }
    }
    const content = { uri: file.uri, ...(checked ?? encodeContent(file.bytes)) };
    return { ...this.envelope(ctx), contents: [file.mimeType ? { ...content, mimeType: file.mimeType } : content] };
  }
}
