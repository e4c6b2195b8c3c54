import { isCatalogBuiltHere } from '../catalog/catalog.js';
import { sha256Digest } from '../bytes/digest.js';
import { encodeContent, verifiedContent } from '../bytes/verified.js';
import { changedFile, directoryNotFound, fileNotFound, internalError, skillNotFound } from '../errors.js';
import { entryProblems } from '../entry/validate.js';
import { DEFAULT_CACHE_HINT, METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';
import { canonicalUri } from '../uri/canonical.js';
import { DEFAULT_BASE_URI, isUnderBase, parseBaseUri, type BaseUri } from '../uri/base.js';
import { fileOfAnswer, kindOf, pageProblem, sortPageEntries } from './source-answers.js';
import { warnOnce } from './warn-once.js';
import type { CacheHint, SkillContext, SkillSource, SkillWarning } from '../types.js';

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

export interface SkillHandlersOptions {
  /** Fail a whole `skills/list` page for one invalid entry instead of dropping it with a warning. */
  strict?: boolean;
}

/**
 * The extension's request logic, independent of how it is wired to a server: asks the source,
 * refuses to put anything invalid on the wire, and adds the result envelope. Both protocol eras
 * answer through it, so a source's answer means the same on either.
 */
export class SkillHandlers {
  // Entries from a SkillCatalog this copy of core built were validated then; anything else is checked per request.
  readonly #trusted: boolean;
  readonly #strict: boolean;
  /** Where the source's URIs live (`source.baseUri`, default `skill://`). */
  readonly base: BaseUri;
  /** Problems with what the source returned, each told once (they recur on every request). */
  readonly #tell: (warning: SkillWarning) => void;

  constructor(
    private readonly source: SkillSource,
    private readonly warn: (warning: SkillWarning) => void,
    options: SkillHandlersOptions = {},
  ) {
    this.#trusted = isCatalogBuiltHere(source);
    this.base = baseOf(source);
    this.#strict = options.strict === true;
    this.#tell = warnOnce(source, warn);
  }

  /** Whether a `resources/read` of `uri` is the source's to answer (or refuse), rather than the app's. */
  serves(uri: string): boolean {
    return isUnderBase(this.base, uri);
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

  /** Refuse an answer that breaks the SkillSource contract: told once, and a -32603 that names no detail. */
  #refuse(code: string, method: string, problem: string, uri?: string): never {
    this.#tell({ code, ...(uri !== undefined ? { uri } : {}), message: `${method}: the skill source returned ${problem}; nothing was sent` });
    throw internalError(`The server's skill source gave an invalid answer to ${method}${uri !== undefined ? ` for ${uri}` : ''}`);
  }

  #checkPage(page: unknown, method: string, items: 'skills' | 'resources', uri?: string): void {
    if (this.#trusted) return;
    const problem = pageProblem(page, items);
    if (problem) this.#refuse('invalid-page', method, problem, uri);
  }

  /** What is wrong with an entry from the source, or undefined (always undefined for a catalog's). */
  #entryProblem(entry: unknown): string | undefined {
    if (this.#trusted) return undefined;
    const problems = entryProblems(entry);
    return problems.length > 0 ? problems.join('; ') : undefined;
  }

  async list(cursor: string | undefined, ctx: SkillContext) {
    const page = await this.source.list(cursor === undefined ? {} : { cursor }, ctx);
    this.#checkPage(page, METHOD_SKILLS_LIST, 'skills');
    const next = page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {};
    // A catalog's pages were checked when it was built (valid, one entry per URI): nothing to redo per request.
    if (this.#trusted) return { ...this.envelope(ctx), skills: page.skills, ...next };
    const { kept, dropped } = sortPageEntries(page.skills);
    for (const { uri, problem } of dropped) {
      if (this.#strict) this.#refuse('invalid-entry', METHOD_SKILLS_LIST, `an invalid entry (${problem}), and strict is on`, uri);
      this.#tell({ code: 'invalid-entry', ...(uri !== undefined ? { uri } : {}), message: `${METHOD_SKILLS_LIST}: the skill source returned an invalid entry, dropped from the page: ${problem}` });
    }
    return { ...this.envelope(ctx), skills: kept, ...next };
  }

  async get(uri: string, ctx: SkillContext) {
    const skill = await this.source.get(uri, ctx);
    if (skill === undefined || skill === null) throw skillNotFound(uri);
    const problem = this.#entryProblem(skill);
    if (problem !== undefined) this.#refuse('invalid-entry', METHOD_SKILLS_GET, `an invalid entry (${problem})`, uri);
    if (!this.#trusted && canonicalUri(skill.uri) !== canonicalUri(uri)) this.#refuse('invalid-entry', METHOD_SKILLS_GET, `the entry of another skill, ${skill.uri}`, uri);
    return { ...this.envelope(ctx), skill };
  }

  async readDirectory(uri: string, cursor: string | undefined, ctx: SkillContext) {
    const page = await this.source.readDirectory!(uri, cursor === undefined ? {} : { cursor }, ctx);
    if (page === undefined || page === null) throw directoryNotFound(uri);
    this.#checkPage(page, METHOD_DIRECTORY_READ, 'resources', uri);
    return { ...this.envelope(ctx), resources: page.resources, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  }

  async listResources(ctx: SkillContext) {
    const listed = (await this.source.listResources?.(ctx)) ?? [];
    if (!this.#trusted && !Array.isArray(listed)) this.#refuse('invalid-page', 'resources/list', `${kindOf(listed)} from listResources(), not an array`);
    return listed;
  }

  /** Read one file and check it against what was published before a byte goes out. */
  async read(uri: string, ctx: SkillContext): Promise<ReadResourceResultLike> {
    const answer = await this.source.read(uri, ctx);
    if (answer === undefined || answer === null) throw fileNotFound(uri);
    const normalised = fileOfAnswer(answer, uri);
    if ('problem' in normalised) this.#refuse('invalid-read-result', 'resources/read', normalised.problem, uri);
    const file = normalised.file;
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

/** A source's base URI, checked when it is attached. */
function baseOf(source: SkillSource): BaseUri {
  if (source.baseUri === undefined) return DEFAULT_BASE_URI;
  const base = parseBaseUri(source.baseUri);
  if (typeof base === 'string') throw new TypeError(`skillmount: the skill source's baseUri ${base}`);
  return base;
}
