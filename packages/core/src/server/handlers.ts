import { catalogInternals, isCatalogBuiltHere, type SkillCatalog } from '../catalog/catalog.js';
import { skillsHolding, visiblePage } from '../catalog/visible.js';
import { skillAtPath, skillsNamed } from '../catalog/names.js';
import { compare } from '../text/compare.js';
import { sha256Digest } from '../bytes/digest.js';
import { encodeContent, verifiedContent, type EncodedContent } from '../bytes/verified.js';
import { SkillNotFoundError, changedFile, directoryNotFound, entryChanged, fileNotFound, internalError, skillNotFound } from '../errors.js';
import { entryProblems } from '../entry/validate.js';
import { DEFAULT_CACHE_HINT, METHOD_DIRECTORY_READ, METHOD_SKILLS_GET, METHOD_SKILLS_LIST } from '../protocol/constants.js';

const METHOD_DISCOVER = 'server/discover';
/** What a search is named by, in the response budget's refusals and the source checks' warnings. */
const SEARCH_SUBJECT = 'search_skills';
import { canonicalUri } from '../uri/canonical.js';
import { DEFAULT_BASE_URI, isUnderBase, parseBaseUri, type BaseUri } from '../uri/base.js';
import { fileOfAnswer, kindOf, pageProblem, sortPageEntries, type DroppedEntry } from './source-answers.js';
import { tellFor } from '../warnings/told.js';
import { holdingCandidates, Visibility } from './visibility.js';
import { withResolvedSource } from '../routing/routed-source.js';
import { DEFAULT_INSTRUCTIONS_PLAN, type InstructionsPlan } from './instructions-option.js';
import type {
  CacheHint,
  GetSkillResult,
  ListSkillsPage,
  ListSkillsResult,
  ReadDirectoryResult,
  ReadSkillFileResult,
  SkillContext,
  SkillEntry,
  SkillFileContent,
  SkillResourceListing,
  SkillSource,
  SkillVisibility,
  SkillWarning,
  SkillWarningCode,
  SkillReadHooks,
  SkillReadVia,
  SearchSkillsResult,
} from '../types.js';
import { ReadEvents } from './read-events.js';
import { namedDigest } from './read-digest.js';
import { allListed } from './listed-pages.js';
import { MAX_SEARCH_PAGES, searchSource, type SearchAsk } from './source-search.js';
import { searchRefusal } from './search-refusal.js';
import { skillMdName } from '../uri/skill-md-name.js';
import { requestChannel, type SkillRequestMessage } from '../telemetry/channels.js';
import { requestMessage } from '../telemetry/request-message.js';
import { traced as trace } from '../telemetry/trace.js';

/** What is wrong with a cache hint from a source the catalog did not check, or undefined. */
function cacheHintProblem(hint: unknown): string | undefined {
  if (typeof hint !== 'object' || hint === null) return `${String(hint)}, not an object`;
  const { ttlMs, cacheScope } = hint as Partial<CacheHint>;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) return `ttlMs ${String(ttlMs)}, not a non-negative integer`;
  if (cacheScope !== 'public' && cacheScope !== 'private') return `cacheScope ${JSON.stringify(cacheScope) ?? 'undefined'}, not "public" or "private"`;
  return undefined;
}

type Envelope = { resultType: 'complete' } & CacheHint;

/** Source pages one `skills/list` call may ask for while each comes out empty under the visibility rule. */
const MAX_HIDDEN_PAGES = 100;

export interface SkillHandlersOptions {
  /** Fail a whole `skills/list` page for one invalid entry instead of dropping it with a warning. */
  strict?: boolean;
  /** Per-request visibility, besides the source's own `visible` (both must allow a skill). */
  visible?: SkillVisibility;
  /**
   * The response budget: runs one answer's work once its connection has room (`subject`, a URI or
   * a method, names it in a refusal). Default: none.
   */
  count?: <T>(subject: string, work: () => Promise<T>) => Promise<T>;
  /** When the server's instructions name the skills, checked (the `instructions` option). Default: `'auto'`, 2048 bytes. */
  instructions?: InstructionsPlan;
  /** Told of each file answered (`onSkillLoad`, `onFileRead`). Default: none. */
  reads?: SkillReadHooks;
}

/**
 * What a name names for one request, from a catalog's index of names (`SkillHandlers.named`): the
 * envelope of the source that answered, and the skills the request may see that go by the name.
 */
export type NamedSkills = Envelope & {
  /**
   * The skill `name` names by the rule of the read tool and the prompts (server/skill-names.ts):
   * the visible skill that goes by `name` (its own name when no other visible skill has it, else
   * its path, `acme/billing/refunds`), the later in list order when two do; else the visible skill
   * whose path is `name` (a path is always accepted). Undefined when neither.
   */
  skill: SkillEntry | undefined;
  /** Every visible skill whose own name is `name`, in list order: more than one when the name is shared. */
  bearing: SkillEntry[];
  /** How many skills the catalog serves, hidden ones included: a bound on the visible skills listed before any of these. */
  served: number;
};

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
  readonly #strict: boolean;
  /** Where the source's URIs live (`source.baseUri`, default `skill://`). */
  readonly base: BaseUri;
  /**
   * Where warnings go, each as often as its code's rule says (warnings/codes.ts): a problem with what
   * the source returned recurs on every request, and is told once per source and URI.
   */
  readonly #tell: (warning: SkillWarning, subject?: string) => void;
  /** Undefined when no rule is set: then nothing is asked, and nothing costs more. */
  readonly #visibility: Visibility | undefined;
  readonly #count: SkillHandlersOptions['count'];
  readonly #reads: ReadEvents;
  /** When the instructions of the servers and paths answering through this service name the skills. */
  readonly instructions: InstructionsPlan;

  constructor(source: SkillSource, warn: (warning: SkillWarning) => void, options: SkillHandlersOptions = {}) {
    this.#source = source;
    this.base = baseOf(source);
    this.#strict = options.strict === true;
    this.#tell = tellFor(source, warn);
    this.#visibility = Visibility.of(options.visible, source, this.#tell);
    this.#count = options.count;
    this.#reads = new ReadEvents(options.reads ?? {}, this.#tell);
    this.instructions = options.instructions ?? DEFAULT_INSTRUCTIONS_PLAN;
  }

  /** Whether a `resources/read` of `uri` is the source's to answer (or refuse), rather than the app's. */
  serves(uri: string): boolean {
    return isUnderBase(this.base, uri);
  }

  /**
   * Run `fn` with the one source that answers `ctx`, held until `fn` settles, under the response
   * budget (`subject` names the request in a refusal; a caller that counts already makes this a
   * no-op). A request whose `ctx.signal` aborts rejects with the signal's reason.
   */
  async #answer<T>(
    ctx: SkillContext,
    subject: string,
    fn: (answering: Answering, traced: SkillRequestMessage | undefined) => T | Promise<T>,
    method = subject,
    uri: string | undefined = subject === method ? undefined : subject,
  ): Promise<T> {
    ctx.signal?.throwIfAborted();
    // A trace for the skills request itself, when a subscriber listens (the request's own method, not a lookup made for a tool).
    const traced = requestChannel.hasSubscribers ? requestMessage(ctx, method, uri) : undefined;
    const work = () => withResolvedSource(this.#source, ctx, async (source) => fn({ source, trusted: isCatalogBuiltHere(source) }, traced));
    const run = () => (this.#count ? this.#count(subject, work) : work());
    const answer = await (traced ? trace(requestChannel, traced, run) : run());
    ctx.signal?.throwIfAborted();
    return answer;
  }

  /**
   * The source that answers `ctx` (its tenant's catalog, under a per-tenant source), as an
   * identity to keep per-tenant caches by; nothing is asked of it.
   */
  answeringSource(ctx: SkillContext): Promise<object> {
    return withResolvedSource(this.#source, ctx, (source) => source);
  }

  /** `resultType` and the cache fields of a result that does not come from the source (`server/discover`). */
  envelope(ctx: SkillContext): Promise<Envelope> {
    return this.#answer(ctx, METHOD_DISCOVER, ({ source }) => this.#envelopeOf(source, ctx));
  }

  /** `resultType` and the cache fields every result carries: the hint of the source that answered. */
  #envelopeOf(source: SkillSource, ctx: SkillContext): Envelope {
    const hint = source.cacheHint?.(ctx) ?? DEFAULT_CACHE_HINT;
    const problem = cacheHintProblem(hint);
    if (problem) {
      this.#tell({
        code: 'invalid-cache-hint',
        message: `the skill source's cacheHint() returned ${problem}; nothing was sent. Return { ttlMs: <integer ≥ 0>, cacheScope: 'public' | 'private' }`,
      });
      throw internalError("The server's skill source gave an invalid cache hint");
    }
    return { resultType: 'complete', ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
  }

  /** Refuse an answer that breaks the SkillSource contract: told once, and a -32603 that names no detail. */
  #refuse(code: SkillWarningCode, method: string, problem: string, uri?: string): never {
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

  list(cursor: string | undefined, ctx: SkillContext): Promise<ListSkillsResult> {
    return this.#answer(ctx, METHOD_SKILLS_LIST, async (answering) => {
      const visibility = this.#visibility;
      if (visibility && answering.trusted) {
        const page = await visiblePage(answering.source as SkillCatalog, cursor, (entry) => visibility.allows(entry, ctx));
        return { ...this.#envelopeOf(answering.source, ctx), ...page };
      }
      const page = await answering.source.list(cursor === undefined ? {} : { cursor }, ctx);
      this.#checkPage(answering, page, METHOD_SKILLS_LIST, 'skills');
      if (visibility) return this.#visibleOfSource(answering, page, ctx, visibility);
      const next = page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {};
      // A catalog's pages were checked when it was built (valid, one entry per URI): nothing to redo per request.
      if (answering.trusted) return { ...this.#envelopeOf(answering.source, ctx), skills: page.skills, ...next };
      const { kept, dropped } = sortPageEntries(page.skills);
      this.#tellDropped(dropped);
      return { ...this.#envelopeOf(answering.source, ctx), skills: kept, ...next };
    });
  }

  /**
   * The skills `name` names for the request, found in the catalog's index of names: `visible()`
   * (of the source and of the option) is asked for the skills whose own name is `name`, for the one
   * whose path is `name`, and, when that one's own name is another, for the skills sharing it until
   * one is visible; nothing else, so the work does not grow with the catalog. A name no skill goes
   * by asks the rules about a stand-in, as a missing URI does. The answer is what a walk of every
   * `list` page would give (server/skill-names.ts), under the same budget and tenant resolution.
   * Undefined when the source that answers keeps no index (an app's own `SkillSource`, or a catalog
   * under another base URI than the service's): the caller then walks `list`.
   */
  named(name: string, ctx: SkillContext): Promise<NamedSkills | undefined> {
    // Counted as the list pages it stands for.
    return this.#answer(ctx, METHOD_SKILLS_LIST, async (answering) => {
      if (!answering.trusted) return undefined;
      const catalog = answering.source as SkillCatalog;
      if (catalog.baseUri !== this.base.uri) return undefined;
      const envelope = this.#envelopeOf(catalog, ctx);
      const shown = this.#shownOnce(ctx);
      const named = skillsNamed(catalog, name);
      const bearing: SkillEntry[] = [];
      for (const entry of named) if (await shown(entry)) bearing.push(entry);
      const atPath = skillAtPath(catalog, this.base, name);
      if (!atPath && named.length === 0) {
        await this.#visibility?.askForMissing(`${this.base.uri}${name}/SKILL.md`, ctx);
        return { ...envelope, skill: undefined, bearing, served: catalog.entries.length };
      }
      const path = atPath && (await shown(atPath)) ? atPath : undefined;
      // Each visible skill goes by its own name, or by its path when another visible skill shares that name.
      const byName = bearing.length === 1 ? bearing[0] : undefined;
      const byPath = path && (await this.#nameShared(catalog, path, bearing, shown)) ? path : undefined;
      // A list walk names skills in list order, a later one taking a name an earlier one went by.
      const skill = byName && byPath ? (compare(byName.uri, byPath.uri) > 0 ? byName : byPath) : (byName ?? byPath ?? path);
      return { ...envelope, skill, bearing, served: catalog.entries.length };
    });
  }

  /** Whether another visible skill has the same own name as `entry` (`bearing`: the visible ones with the name asked for). */
  async #nameShared(catalog: SkillCatalog, entry: SkillEntry, bearing: readonly SkillEntry[], shown: (entry: SkillEntry) => Promise<boolean>) {
    if (bearing.includes(entry)) return bearing.length > 1;
    for (const other of skillsNamed(catalog, entry.frontmatter.name)) if (other !== entry && (await shown(other))) return true;
    return false;
  }

  /** `visible()` for one request, asked at most once per skill. */
  #shownOnce(ctx: SkillContext): (entry: SkillEntry) => Promise<boolean> {
    const visibility = this.#visibility;
    const asked = new Map<SkillEntry, boolean>();
    return async (entry) => {
      if (!visibility) return true;
      let shown = asked.get(entry);
      if (shown === undefined) {
        shown = await visibility.allows(entry, ctx);
        asked.set(entry, shown);
      }
      return shown;
    };
  }

  /**
   * The skills the request may see that match `ask.query`, best first, one page: the answering
   * source's search (a catalog's index, one per tenant), asked with the visibility rules so a
   * hidden skill is neither ranked nor counted, and a page and its cursor are those of a catalog
   * without it. A source that cannot search has its visible skills ranked here. A query, limit or
   * cursor the search refuses is -32602, with what was wrong.
   */
  search(ask: SearchAsk, ctx: SkillContext): Promise<SearchSkillsResult> {
    return this.#answer(ctx, SEARCH_SUBJECT, async (answering) => {
      const visibility = this.#visibility;
      const shown = visibility ? (entry: SkillEntry) => visibility.allows(entry, ctx) : undefined;
      let found: { page: unknown; checked: boolean };
      try {
        const catalog = answering.trusted ? (answering.source as SkillCatalog) : undefined;
        found = await searchSource(answering.source, ask, ctx, shown, () => this.#visibleListed(ctx), catalog);
      } catch (error) {
        throw searchRefusal(error);
      }
      if (!found.checked) this.#checkPage({ ...answering, trusted: false }, found.page, SEARCH_SUBJECT, 'skills');
      const { skills, nextCursor } = found.page as { skills: SkillEntry[]; nextCursor?: string };
      const next = nextCursor !== undefined ? { nextCursor } : {};
      if (found.checked) return { ...this.#envelopeOf(answering.source, ctx), skills, ...next };
      // A custom source's own search is checked as its pages are, and its results seen through the rules again.
      const { kept, dropped } = sortPageEntries(skills);
      this.#tellDropped(dropped);
      const shownSkills: SkillEntry[] = [];
      for (const entry of kept) if (!visibility || (await visibility.allows(entry, ctx))) shownSkills.push(entry);
      return { ...this.#envelopeOf(answering.source, ctx), skills: shownSkills, ...next };
    });
  }

  /** Every skill the request may see, in list order, up to MAX_SEARCH_PAGES pages: for a source that cannot search. */
  #visibleListed(ctx: SkillContext): Promise<SkillEntry[]> {
    return allListed((cursor) => this.list(cursor, ctx), MAX_SEARCH_PAGES);
  }

  /** Report the entries left off a custom source's page, or under `strict` fail the page. */
  #tellDropped(dropped: readonly DroppedEntry[]): void {
    for (const { uri, problem } of dropped) {
      if (this.#strict) this.#refuse('invalid-entry', METHOD_SKILLS_LIST, `an invalid entry (${problem}), and strict is on`, uri);
      this.#tell({
        code: 'invalid-entry',
        ...(uri !== undefined ? { uri } : {}),
        message: `${METHOD_SKILLS_LIST}: the skill source returned an invalid entry, dropped from the page: ${problem}`,
      });
    }
  }

  get(uri: string, ctx: SkillContext): Promise<GetSkillResult> {
    return this.#answer(
      ctx,
      METHOD_SKILLS_GET,
      async (answering, traced) => {
        const visibility = this.#visibility;
        let skill: SkillEntry | undefined | null;
        try {
          skill = await answering.source.get(uri, ctx);
        } catch (error) {
          if (visibility && error instanceof SkillNotFoundError) await visibility.askForMissing(uri, ctx);
          throw error;
        }
        if (skill === undefined || skill === null) {
          await visibility?.askForMissing(uri, ctx);
          throw skillNotFound(uri);
        }
        const problem = this.#entryProblem(answering, skill);
        if (problem !== undefined) this.#refuse('invalid-entry', METHOD_SKILLS_GET, `an invalid entry (${problem})`, uri);
        if (!answering.trusted && canonicalUri(skill.uri) !== canonicalUri(uri))
          this.#refuse('invalid-entry', METHOD_SKILLS_GET, `the entry of another skill, ${skill.uri}`, uri);
        // The catalog's own answer for a skill it does not serve.
        if (visibility && !(await visibility.allows(skill, ctx))) throw skillNotFound(uri);
        if (traced) traced.skill = skill.frontmatter.name;
        return { ...this.#envelopeOf(answering.source, ctx), skill };
      },
      METHOD_SKILLS_GET,
      uri,
    );
  }

  readDirectory(uri: string, cursor: string | undefined, ctx: SkillContext): Promise<ReadDirectoryResult> {
    return this.#answer(
      ctx,
      METHOD_DIRECTORY_READ,
      async (answering) => {
        const { source } = answering;
        // A tenant's source may lack folders where the router has them: the answer of a folder it does not have.
        if (typeof source.readDirectory !== 'function') throw directoryNotFound(uri);
        if (this.#visibility && !(await this.#shows(answering, uri, 'directory', ctx, this.#visibility))) throw directoryNotFound(uri);
        const page = await source.readDirectory(uri, cursor === undefined ? {} : { cursor }, ctx);
        if (page === undefined || page === null) throw directoryNotFound(uri);
        this.#checkPage(answering, page, METHOD_DIRECTORY_READ, 'resources', uri);
        return { ...this.#envelopeOf(source, ctx), resources: page.resources, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
      },
      METHOD_DIRECTORY_READ,
      uri,
    );
  }

  listResources(ctx: SkillContext): Promise<SkillResourceListing[]> {
    return this.#answer(ctx, 'resources/list', async (answering) => {
      const listed = (await answering.source.listResources?.(ctx)) ?? [];
      if (!answering.trusted && !Array.isArray(listed)) this.#refuse('invalid-page', 'resources/list', `${kindOf(listed)} from listResources(), not an array`);
      const visibility = this.#visibility;
      if (!visibility) return listed;
      const shown: typeof listed = [];
      for (const listing of listed) if (await this.#shows(answering, listing.uri, 'file', ctx, visibility)) shown.push(listing);
      return shown;
    });
  }

  /**
   * A custom source's page with the hidden skills taken out. Its pages are its own, so a page may
   * come out shorter than the source's page size; one left empty while the source has more is
   * not sent: the next one is asked for instead.
   */
  async #visibleOfSource(answering: Answering, first: ListSkillsPage, ctx: SkillContext, visibility: Visibility) {
    let page = first;
    for (let asked = 1; ; asked++) {
      const { kept, dropped } = sortPageEntries(page.skills);
      this.#tellDropped(dropped);
      const skills: SkillEntry[] = [];
      for (const entry of kept) if (await visibility.allows(entry, ctx)) skills.push(entry);
      if (skills.length > 0 || page.nextCursor === undefined || asked === MAX_HIDDEN_PAGES || ctx.signal?.aborted) {
        const next = page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {};
        return { ...this.#envelopeOf(answering.source, ctx), skills, ...next };
      }
      page = await answering.source.list({ cursor: page.nextCursor }, ctx);
      this.#checkPage(answering, page, METHOD_SKILLS_LIST, 'skills');
    }
  }

  /**
   * Whether the request may see `uri` (a file, or a folder): when at least one skill whose folder
   * holds it is visible, or when no skill holds it (the source answers for it, most often "not
   * found", after the rules were asked about a stand-in, as for a hidden skill).
   */
  async #shows(answering: Answering, uri: string, kind: 'file' | 'directory', ctx: SkillContext, visibility: Visibility): Promise<boolean> {
    const holding = answering.trusted ? skillsHolding(answering.source as SkillCatalog, uri, kind) : await this.#holdingOf(answering.source, uri, kind, ctx);
    if (holding.length === 0) {
      await visibility.askForMissing(uri, ctx);
      return true;
    }
    for (const entry of holding) if (await visibility.allows(entry, ctx)) return true;
    return false;
  }

  /** The skills of a custom source whose folders hold `uri`, nearest first, found by asking it for each folder's SKILL.md. */
  async #holdingOf(source: SkillSource, uri: string, kind: 'file' | 'directory', ctx: SkillContext): Promise<SkillEntry[]> {
    const holding: SkillEntry[] = [];
    for (const candidate of holdingCandidates(this.base, uri, kind)) {
      let entry: SkillEntry | undefined | null;
      try {
        entry = await source.get(candidate, ctx);
      } catch (error) {
        if (error instanceof SkillNotFoundError) continue;
        throw error;
      }
      if (entry !== undefined && entry !== null && entryProblems(entry).length === 0) holding.push(entry);
    }
    return holding;
  }

  /**
   * Read one file and check it against what was published before a byte goes out (`via`: for the
   * read hooks; `meta`: the request's `params._meta`, where a client may name the digest it holds).
   */
  async read(uri: string, ctx: SkillContext, via: SkillReadVia = 'resources/read', meta?: unknown): Promise<ReadSkillFileResult> {
    const { envelope, file, content } = await this.readChecked(uri, ctx, via, meta);
    const contents = { uri: file.uri, ...content };
    return { ...envelope, contents: [file.mimeType ? { ...contents, mimeType: file.mimeType } : contents] };
  }

  /**
   * One file's bytes once they match what was published, with their wire encoding (text when they
   * are UTF-8, else base64): what `read` sends, for a surface that frames it itself (the SDK v2
   * adapter). The read hooks hear of it once it is settled (`via` says how it came; a `well-known`
   * read is one file of an archive, told as one load by the archive's route). A digest named in
   * `meta` (the entry the client holds) is served as those exact bytes: a catalog's current ones,
   * or those it kept from before a reload; else the read is refused as an entry that changed.
   */
  async readChecked(
    uri: string,
    ctx: SkillContext,
    via: SkillReadVia = 'resources/read',
    meta?: unknown,
  ): Promise<{ envelope: Envelope; file: SkillFileContent; content: EncodedContent }> {
    const digest = namedDigest(meta);
    let skill: string | undefined;
    const checked = await this.#answer(
      ctx,
      uri,
      async (answering, traced) => {
        const { source } = answering;
        // Asked before the source reads a byte: a hidden skill's files are never fetched.
        if (this.#visibility && !(await this.#shows(answering, uri, 'file', ctx, this.#visibility))) throw fileNotFound(uri);
        const answer =
          digest !== undefined && answering.trusted ? await catalogInternals(source as SkillCatalog).readDigest(uri, digest) : await source.read(uri, ctx);
        if (answer === undefined || answer === null) throw fileNotFound(uri);
        const normalised = fileOfAnswer(answer, uri);
        if ('problem' in normalised) this.#refuse('invalid-read-result', 'resources/read', normalised.problem, uri);
        const file = normalised.file;
        if (digest !== undefined && !answering.trusted) checkNamedDigest(file, digest);
        const content = this.#checkedContent(file);
        if (this.#reads.on || traced) {
          skill = answering.trusted ? skillsHolding(answering.source as SkillCatalog, uri, 'file')[0]?.frontmatter.name : skillMdName(uri);
        }
        // Only once answered: a refused URI names no skill (nor grows a tracer's attribute values).
        if (traced) {
          traced.skill = skill;
          traced.bytes = file.bytes.byteLength;
        }
        return { envelope: this.#envelopeOf(source, ctx), file, content };
      },
      'resources/read',
    );
    if (via !== 'well-known') this.#reads.answered({ uri, bytes: checked.file.bytes.byteLength, via, skill, ctx });
    return checked;
  }

  /** Tell the read hooks of a skill's archive (or single file) answered at `/.well-known/agent-skills/`. */
  wellKnownLoad(uri: string, skill: string, bytes: number, ctx: SkillContext): void {
    this.#reads.answered({ uri, bytes, via: 'well-known', skill, ctx });
  }

  /**
   * The file's content for the wire, once its bytes match what was published. The one place
   * digests are checked before bytes go out, for every source and every surface: a source
   * (a catalog's uncached read included) returns bytes unchecked, with what it published; bytes
   * a catalog's cache verified when they entered it carry that proof and are not hashed again.
   */
  #checkedContent(file: SkillFileContent): EncodedContent {
    const published = file.published;
    // Bytes a catalog checked when it cached them are neither hashed nor encoded again.
    const checked = published && published !== 'dynamic' ? verifiedContent(file.bytes, published) : undefined;
    if (published && published !== 'dynamic' && !checked) {
      if (file.bytes.byteLength !== published.size || sha256Digest(file.bytes) !== published.digest) {
        const { warning, error } = changedFile(file.uri);
        this.#tell(warning);
        throw error;
      }
    }
    return checked ?? encodeContent(file.bytes);
  }
}

/**
 * A custom source keeps no earlier bytes: a named digest other than the one it publishes now (or,
 * when it publishes none, than its bytes') is an entry that changed.
 */
function checkNamedDigest(file: SkillFileContent, digest: string): void {
  const published = file.published;
  const current = published && published !== 'dynamic' ? published.digest : sha256Digest(file.bytes);
  if (current !== digest) throw entryChanged(file.uri, digest);
}

/** A source's base URI, checked when it is attached. */
function baseOf(source: SkillSource): BaseUri {
  if (source.baseUri === undefined) return DEFAULT_BASE_URI;
  const base = parseBaseUri(source.baseUri);
  if (typeof base === 'string') throw new TypeError(`skillmount: the skill source's baseUri ${base}`);
  return base;
}
