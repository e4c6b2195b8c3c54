import { isCatalogBuiltHere } from '../catalog/catalog.js';
import { sha256Digest } from '../bytes/digest.js';
import { encodeContent, verifiedContent, type EncodedContent } from '../bytes/verified.js';
import { changedFile, directoryNotFound, fileNotFound, internalError, skillNotFound } from '../errors.js';
import { entryProblems } from '../entry/validate.js';
import { DEFAULT_CACHE_HINT, METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';
import { canonicalUri } from '../uri/canonical.js';
import { DEFAULT_BASE_URI, isUnderBase, parseBaseUri, type BaseUri } from '../uri/base.js';
import { fileOfAnswer, kindOf, pageProblem, sortPageEntries } from './source-answers.js';
import { warnOnce } from './warn-once.js';
import { withResolvedSource } from '../routing/routed-source.js';
import type { CacheHint, SkillContext, SkillFileContent, SkillSource, SkillWarning } from '../types.js';

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

type Envelope = { resultType: 'complete' } & CacheHint;

export interface SkillHandlersOptions {
  /** Fail a whole `skills/list` page for one invalid entry instead of dropping it with a warning. */
  strict?: boolean;
}

/** The source answering one request, and whether its entries were checked when it was built. */
interface Answering {
  source: SkillSource;
  // Entries from a SkillCatalog were validated when it was built; anything else is checked per request.
  trusted: boolean;
}

/**
 * The extension's request logic, independent of how it is wired to a server: resolves the source
 * that answers the request (a per-tenant source resolves to the tenant's catalog) once, asks it,
 * refuses to put anything invalid on the wire, and adds the result envelope with that same
 * source's cache hint. Both protocol eras answer through it, so a source's answer means the same on either.
 */
export class SkillHandlers {
  readonly #source: SkillSource;
  readonly #warn: (warning: SkillWarning) => void;
  readonly #strict: boolean;
  /** Where the source's URIs live (`source.baseUri`, default `skill://`). */
  readonly base: BaseUri;
  /** Problems with what the source returned, each told once (they recur on every request). */
  readonly #tell: (warning: SkillWarning) => void;

  constructor(source: SkillSource, warn: (warning: SkillWarning) => void, options: SkillHandlersOptions = {}) {
    this.#source = source;
    this.#warn = warn;
    this.base = baseOf(source);
    this.#strict = options.strict === true;
    this.#tell = warnOnce(source, warn);
  }

  /** Whether a `resources/read` of `uri` is the source's to answer (or refuse), rather than the app's. */
  serves(uri: string): boolean {
    return isUnderBase(this.base, uri);
  }

  /** Run `fn` with the one source that answers `ctx`, held until `fn` settles. */
  #answer<T>(ctx: SkillContext, fn: (answering: Answering) => T | Promise<T>): Promise<T> {
    return withResolvedSource(this.#source, ctx, (source) => fn({ source, trusted: isCatalogBuiltHere(source) }));
  }

  /** `resultType` and the cache fields of a result that does not come from the source (`server/discover`). */
  envelope(ctx: SkillContext): Promise<Envelope> {
    return this.#answer(ctx, ({ source }) => this.#envelopeOf(source, ctx));
  }

  /** `resultType` and the cache fields every result carries: the hint of the source that answered. */
  #envelopeOf(source: SkillSource, ctx: SkillContext): Envelope {
    const hint = source.cacheHint?.(ctx) ?? DEFAULT_CACHE_HINT;
    const problem = cacheHintProblem(hint);
    if (problem) {
      this.#warn({
        code: 'invalid-cache-hint',
        message: `the skill source's cacheHint() returned ${problem}; nothing was sent. Return { ttlMs: <integer ≥ 0>, cacheScope: 'public' | 'private' }`,
      });
      throw internalError("The server's skill source gave an invalid cache hint");
    }
    return { resultType: 'complete', ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
  }

  /** Refuse an answer that breaks the SkillSource contract: told once, and a -32603 that names no detail. */
  #refuse(code: string, method: string, problem: string, uri?: string): never {
    this.#tell({ code, ...(uri !== undefined ? { uri } : {}), message: `${method}: the skill source returned ${problem}; nothing was sent` });
    throw internalError(`The server's skill source gave an invalid answer to ${method}${uri !== undefined ? ` for ${uri}` : ''}`);
  }

  #checkPage(answering: Answering, page: unknown, method: string, items: 'skills' | 'resources', uri?: string): void {
    if (answering.trusted) return;
    const problem = pageProblem(page, items);
    if (problem) this.#refuse('invalid-page', method, problem, uri);
  }

  /** What is wrong with an entry from the source, or undefined (always undefined for a catalog's). */
  #entryProblem(answering: Answering, entry: unknown): string | undefined {
    if (answering.trusted) return undefined;
    const problems = entryProblems(entry);
    return problems.length > 0 ? problems.join('; ') : undefined;
  }

  list(cursor: string | undefined, ctx: SkillContext) {
    return this.#answer(ctx, async (answering) => {
      const page = await answering.source.list(cursor === undefined ? {} : { cursor }, ctx);
      this.#checkPage(answering, page, METHOD_SKILLS_LIST, 'skills');
      const next = page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {};
      // A catalog's pages were checked when it was built (valid, one entry per URI): nothing to redo per request.
      if (answering.trusted) return { ...this.#envelopeOf(answering.source, ctx), skills: page.skills, ...next };
      const { kept, dropped } = sortPageEntries(page.skills);
      for (const { uri, problem } of dropped) {
        if (this.#strict) this.#refuse('invalid-entry', METHOD_SKILLS_LIST, `an invalid entry (${problem}), and strict is on`, uri);
        this.#tell({
          code: 'invalid-entry',
          ...(uri !== undefined ? { uri } : {}),
          message: `${METHOD_SKILLS_LIST}: the skill source returned an invalid entry, dropped from the page: ${problem}`,
        });
      }
      return { ...this.#envelopeOf(answering.source, ctx), skills: kept, ...next };
    });
  }

  get(uri: string, ctx: SkillContext) {
    return this.#answer(ctx, async (answering) => {
      const skill = await answering.source.get(uri, ctx);
      if (skill === undefined || skill === null) throw skillNotFound(uri);
      const problem = this.#entryProblem(answering, skill);
      if (problem !== undefined) this.#refuse('invalid-entry', METHOD_SKILLS_GET, `an invalid entry (${problem})`, uri);
      if (!answering.trusted && canonicalUri(skill.uri) !== canonicalUri(uri))
        this.#refuse('invalid-entry', METHOD_SKILLS_GET, `the entry of another skill, ${skill.uri}`, uri);
      return { ...this.#envelopeOf(answering.source, ctx), skill };
    });
  }

  readDirectory(uri: string, cursor: string | undefined, ctx: SkillContext) {
    return this.#answer(ctx, async (answering) => {
      const { source } = answering;
      // A tenant's source may lack folders where the router has them: the answer of a folder it does not have.
      if (typeof source.readDirectory !== 'function') throw directoryNotFound(uri);
      const page = await source.readDirectory(uri, cursor === undefined ? {} : { cursor }, ctx);
      if (page === undefined || page === null) throw directoryNotFound(uri);
      this.#checkPage(answering, page, METHOD_DIRECTORY_READ, 'resources', uri);
      return { ...this.#envelopeOf(source, ctx), resources: page.resources, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    });
  }

  listResources(ctx: SkillContext) {
    return this.#answer(ctx, async (answering) => {
      const listed = (await answering.source.listResources?.(ctx)) ?? [];
      if (!answering.trusted && !Array.isArray(listed)) this.#refuse('invalid-page', 'resources/list', `${kindOf(listed)} from listResources(), not an array`);
      return listed;
    });
  }

  /** Read one file and check it against what was published before a byte goes out. */
  read(uri: string, ctx: SkillContext): Promise<ReadResourceResultLike> {
    return this.#answer(ctx, async ({ source }) => {
      const answer = await source.read(uri, ctx);
      if (answer === undefined || answer === null) throw fileNotFound(uri);
      const normalised = fileOfAnswer(answer, uri);
      if ('problem' in normalised) this.#refuse('invalid-read-result', 'resources/read', normalised.problem, uri);
      const file = normalised.file;
      const content = { uri: file.uri, ...this.#checkedContent(file) };
      return { ...this.#envelopeOf(source, ctx), contents: [file.mimeType ? { ...content, mimeType: file.mimeType } : content] };
    });
  }

  /** The file's content for the wire, once its bytes match what was published. */
  #checkedContent(file: SkillFileContent): EncodedContent {
    const published = file.published;
    // Bytes a catalog checked when it cached them are neither hashed nor encoded again.
    const checked = published && published !== 'dynamic' ? verifiedContent(file.bytes, published) : undefined;
    if (published && published !== 'dynamic' && !checked) {
      if (file.bytes.byteLength !== published.size || sha256Digest(file.bytes) !== published.digest) {
        const { warning, error } = changedFile(file.uri);
        this.#warn(warning);
        throw error;
      }
    }
    return checked ?? encodeContent(file.bytes);
  }
}

/** A source's base URI, checked when it is attached. */
function baseOf(source: SkillSource): BaseUri {
  if (source.baseUri === undefined) return DEFAULT_BASE_URI;
  const base = parseBaseUri(source.baseUri);
  if (typeof base === 'string') throw new TypeError(`skillmount: the skill source's baseUri ${base}`);
  return base;
}
