import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type * as z from 'zod';
import type { ClientRequest } from '@modelcontextprotocol/sdk/types.js';
import { entryProblems } from '../entry/validate.js';
import {
  DIGEST_META_KEY,
  ENTRY_CHANGED_REASON,
  METHOD_DIRECTORY_READ,
  METHOD_SKILLS_GET,
  METHOD_SKILLS_LIST,
  SKILLS_EXTENSION_ID,
} from '../protocol/constants.js';
import { SEARCH_LIMITS } from '../search/limits.js';
import { searchEntries } from '../search/search.js';
import { callSearchTool, checkSearchArguments, offersSearchTool } from './search.js';
import { GetSkillEnvelopeSchema, ListSkillsEnvelopeSchema, ReadDirectoryResultSchema, ReadResourceEnvelopeSchema } from '../protocol/schemas.js';
import { canonicalUri } from '../uri/canonical.js';
import { checkCacheFields, mergeCacheFields } from './cache.js';
import { SkillLimitError, SkillResultError, SkillsUnsupportedError, SkillVerificationError } from './errors.js';
import { partitionEntries } from './entries.js';
import { checkLimits, DEFAULT_LIMITS, DynamicReadTally } from './limits.js';
import { walkPages } from './paging.js';
import { serverSupportsSkills, skillsCapabilityOf } from '../protocol/capability.js';
import { enforcesStrictCapabilities, negotiatedProtocolVersion } from './sdk-client.js';
import { numberProblem, optionFail } from '../option-checks.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

const fail = optionFail('skillmount');
import { resolveRef, skillFolderOf } from './relative.js';
import { type SignaturePolicy, SignatureVerdicts, signaturePolicy, signatureRefusal } from './signatures.js';
import type {
  DirectoryListing,
  DirectoryResource,
  RequestOptions,
  SkillEntry,
  SkillFile,
  SkillLimitProblem,
  SkillLimits,
  SkillListing,
  SkillLookup,
  SkillResource,
  SkillSearchResult,
  SkillSignatureVerdict,
  SkillsClientOptions,
} from './types.js';
import { checkListedFile, checkSkillMd, checkSkillMdSize, contentBytes, skillMdText, type ContentItem, type FrontmatterParser } from './verify.js';

const DEFAULT_MAX_PAGES = 1000;
const READ_METHOD = 'resources/read';

interface Target {
  /** What to send: the entry's own spelling for a listed file. */
  requestUri: string;
  /** Canonical spelling, to match content items and count dynamic reads. */
  key: string;
  listed: SkillResource | undefined;
  /** The skill's own SKILL.md (not a nested skill's). */
  skillMd: boolean;
}

/**
 * Host side of the MCP Skills extension over an SDK v1 `Client`: lists and gets skill entries,
 * and reads skill files verified against the entry the host holds (listing, size, SHA-256 digest,
 * and SKILL.md frontmatter). Fetches nothing ahead of need. Approval and loading policy stay with
 * the host.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * import { SkillsClient } from '@skillmount/core/client';
 *
 * const client = new Client({ name: 'my-host', version: '1.0.0' });
 * await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
 * const skills = new SkillsClient(client);
 * const { skills: entries } = await skills.list();
 * for (const entry of entries) {
 *   const file = await skills.read(entry); // its SKILL.md, verified against the entry
 *   console.log(entry.frontmatter.name, file.text?.length);
 * }
 * ```
 * @throws TypeError when `client` is not an MCP SDK `Client`.
 * @throws {@link OptionError} when an option is invalid (`maxPages`, `limits`, `skipInvalid`…).
 */
export class SkillsClient {
  readonly #client: Client;
  readonly #skipInvalid: boolean;
  readonly #parseFrontmatter: FrontmatterParser | undefined;
  readonly #maxPages: number;
  readonly #limits: SkillLimits;
  readonly #protocolVersion: string | undefined;
  readonly #dynamicReads = new DynamicReadTally();
  readonly #refresh: boolean;
  /** Undefined when the client was given no trusted keys: no signature is read. */
  readonly #signatures: SignaturePolicy | undefined;
  readonly #verdicts: SignatureVerdicts;
  /** Whether the server lists `search_skills`: asked on the first search. */
  #offersSearch: Promise<boolean> | undefined;

  constructor(client: Client, options: SkillsClientOptions = {}) {
    if (!client || typeof client.request !== 'function' || typeof client.readResource !== 'function' || typeof client.getServerCapabilities !== 'function') {
      throw new TypeError('skillmount: new SkillsClient(client) needs an MCP SDK Client (from @modelcontextprotocol/sdk/client/index.js)');
    }
    const {
      skipInvalid = false,
      parseFrontmatter,
      maxPages = DEFAULT_MAX_PAGES,
      limits = {},
      protocolVersion,
      refresh = true,
      trustedKeys,
      requireSignature = false,
    } = options;
    if (typeof skipInvalid !== 'boolean') fail('invalid-type', 'skipInvalid', `must be true or false, got ${JSON.stringify(skipInvalid)}`);
    if (typeof refresh !== 'boolean') fail('invalid-type', 'refresh', `must be true or false, got ${JSON.stringify(refresh)}`);
    if (parseFrontmatter !== undefined && typeof parseFrontmatter !== 'function') {
      fail('invalid-type', 'parseFrontmatter', 'must be a function (yaml: string) => Record<string, unknown>');
    }
    if (!Number.isSafeInteger(maxPages) || maxPages < 0)
      fail(numberProblem(maxPages), 'maxPages', `must be a positive integer, or 0 for no cap, got ${String(maxPages)}`);
    if (typeof limits !== 'object' || limits === null) fail('invalid-type', 'limits', `must be an object { files?, bytes? }, got ${String(limits)}`);
    for (const [name, value] of Object.entries(limits)) {
      if (!(name in DEFAULT_LIMITS)) fail('unknown-option', `limits.${name}`, 'is not a limit; use limits.files or limits.bytes');
      if (typeof value !== 'number' || !(value > 0)) fail(numberProblem(value), `limits.${name}`, `must be a positive number, got ${String(value)}`);
    }
    if (protocolVersion !== undefined && typeof protocolVersion !== 'string') fail('invalid-type', 'protocolVersion', 'must be a string such as "2026-07-28"');
    this.#signatures = signaturePolicy(trustedKeys, requireSignature, fail);
    this.#verdicts = new SignatureVerdicts(this.#signatures?.trustedKeys ?? []);
    this.#client = client;
    this.#skipInvalid = skipInvalid;
    this.#parseFrontmatter = parseFrontmatter;
    this.#maxPages = maxPages;
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
    this.#protocolVersion = protocolVersion;
    this.#refresh = refresh;
  }

  /**
   * The server declared the skills extension (and `resources`, when the SDK client was created with
   * `enforceStrictCapabilities`, as the SDK v2 client checks). `false` before connect.
   */
  get supported(): boolean {
    return serverSupportsSkills(this.#client.getServerCapabilities(), { enforceStrictCapabilities: this.#strict });
  }

  /** The extension is supported and declares `directoryRead: true` (it serves `resources/directory/read`). */
  get directoryRead(): boolean {
    return this.supported && skillsCapabilityOf(this.#client.getServerCapabilities())?.directoryRead === true;
  }

  /** The protocol revision result rules are applied for: the option, else what the client negotiated. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion ?? negotiatedProtocolVersion(this.#client);
  }

  /**
   * Why a skill is over the per-skill limits (this client's `limits`), from its entry alone, so a
   * host can decline it and say why before any read. Undefined when within limits or `"dynamic"`.
   */
  checkLimits(skill: SkillEntry): SkillLimitProblem | undefined {
    return checkLimits(skill, this.#limits);
  }

  /**
   * The server's skills: every page (at most `maxPages`), or only the page at `cursor` with its
   * `nextCursor`. Every entry is validated; by default an invalid entry, or any copy of a URI
   * listed more than once, throws a `SkillResultError` naming each; with `skipInvalid` they are
   * returned in `invalid`. A server without the extension gives an empty listing, unasked; with
   * `enforceStrictCapabilities` on the SDK client, a `SkillsUnsupportedError` instead (as the SDK v2).
   *
   * @throws {@link SkillResultError} when an entry is invalid or listed twice (without `skipInvalid`), or paging loops.
   * @throws {@link SkillsUnsupportedError} when the server lacks the extension and the SDK client enforces strict capabilities.
   */
  async list(params: { cursor?: string } = {}, options?: RequestOptions): Promise<SkillListing> {
    if (!this.supported) {
      if (this.#strict) this.#requireExtension(METHOD_SKILLS_LIST);
      return { skills: [], invalid: [] };
    }
    const version = this.protocolVersion;
    const fetchPage = (cursor: string | undefined) =>
      this.#request(METHOD_SKILLS_LIST, cursor === undefined ? {} : { cursor }, ListSkillsEnvelopeSchema, options);
    const pages = params.cursor === undefined ? await walkPages(METHOD_SKILLS_LIST, fetchPage, this.#maxPages) : [await fetchPage(params.cursor)];
    pages.forEach((page, i) => {
      checkCacheFields(METHOD_SKILLS_LIST, page, version, pages.length > 1 ? `page ${i + 1}` : 'the result');
    });
    const { skills, invalid } = partitionEntries(pages.flatMap((page) => page.skills));
    if (invalid.length > 0 && !this.#skipInvalid) {
      const lines = invalid.map((e) => `  #${e.index}${e.uri === undefined ? '' : ` ${e.uri}`}: ${e.reason}`);
      throw new SkillResultError(
        METHOD_SKILLS_LIST,
        `${METHOD_SKILLS_LIST} returned ${invalid.length} invalid entr${invalid.length === 1 ? 'y' : 'ies'}; ` +
          `no skill was returned:\n${lines.join('\n')}\nPass { skipInvalid: true } to use the valid ones.`,
        invalid,
      );
    }
    const listing: SkillListing = { skills, invalid, ...mergeCacheFields(pages) };
    const next = pages.at(-1)?.nextCursor;
    if (params.cursor !== undefined && next !== undefined) listing.nextCursor = next;
    return listing;
  }

  /**
   * The skills that match `query`, best first, as entries to read and verify: from the server's
   * `search_skills` tool when it lists one (each match's entry then fetched with `get()`, so it is
   * checked as any entry is), else ranked here over `list()` with `searchEntries`, the ranking the
   * server's index uses over the same fields. `limit` (1 to 50, default 10) and `cursor` (a
   * `nextCursor` from an earlier search for the same query) page them. Whether the server has the
   * tool is asked once (`tools/list`) and remembered.
   *
   * @throws TypeError when `query` is not a string of 1 to 256 characters (`SEARCH_LIMITS`), or `limit` or `cursor` is
   * invalid (before any request), or, ranked here, the cursor is not one this ranking gave.
   * @throws {@link SkillResultError} when the server's tool refuses the search (its message says why)
   * or answers without the matches, or as `list()` and `get()` throw.
   * @throws {@link SkillsUnsupportedError} as `list()` and `get()` throw it.
   */
  async search(query: string, params: { limit?: number; cursor?: string } = {}, options?: RequestOptions): Promise<SkillSearchResult> {
    checkSearchArguments(query, params);
    const limit = params.limit ?? SEARCH_LIMITS.defaultLimit;
    const cursor = params.cursor !== undefined ? { cursor: params.cursor } : {};
    this.#offersSearch ??= offersSearchTool(this.#client, options).catch((error) => {
      this.#offersSearch = undefined;
      throw error;
    });
    if (await this.#offersSearch) {
      const found = await callSearchTool(this.#client, query, { limit, ...cursor }, options);
      const skills = await Promise.all(found.uris.map(async (uri) => (await this.get(uri, options)).skill));
      return { skills, ...(found.nextCursor !== undefined ? { nextCursor: found.nextCursor } : {}), ranked: 'server' };
    }
    const listing = await this.list({}, options);
    let page: { skills: SkillEntry[]; nextCursor?: string };
    try {
      page = searchEntries(listing.skills, query, { limit, ...cursor });
    } catch (error) {
      throw new TypeError(`search(): ${(error as Error).message}`, { cause: error });
    }
    return { skills: page.skills, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}), ranked: 'client' };
  }

  /**
   * One skill's entry by its SKILL.md URI, listed or not. Refuses an invalid entry or another skill's.
   *
   * @throws TypeError when `uri` is not a string.
   * @throws {@link SkillResultError} when the entry is invalid or is another skill's.
   */
  async get(uri: string, options?: RequestOptions): Promise<SkillLookup> {
    if (typeof uri !== 'string') throw new TypeError('get(uri) needs the SKILL.md URI of a skill as a string');
    this.#requireExtension(METHOD_SKILLS_GET);
    const result = await this.#request(METHOD_SKILLS_GET, { uri }, GetSkillEnvelopeSchema, options);
    checkCacheFields(METHOD_SKILLS_GET, result, this.protocolVersion);
    const problems = entryProblems(result.skill);
    if (problems.length > 0) {
      throw new SkillResultError(METHOD_SKILLS_GET, `${METHOD_SKILLS_GET} for ${uri} returned an invalid entry: ${problems.join('; ')}`);
    }
    const skill = result.skill as SkillEntry;
    const asked = canonicalUri(uri) ?? uri;
    if ((canonicalUri(skill.uri) ?? skill.uri) !== asked) {
      throw new SkillResultError(METHOD_SKILLS_GET, `${METHOD_SKILLS_GET} for ${uri} returned the entry of another skill, ${skill.uri}; it was not used`);
    }
    return { skill, ...mergeCacheFields([result]) };
  }

  /**
   * Read one file of `skill` and verify it against the entry. `ref` is a path relative to the skill
   * folder (`references/FORMS.md`, `./a.md#part`) or an absolute URI; default: the skill's own
   * SKILL.md. The file must be listed (checked before any request) and is requested by the entry's
   * spelling, naming the digest the entry lists (`_meta["io.github.skillmount/digest"]`, so a
   * skillmount server that reloaded since serves the bytes the entry lists while it keeps them);
   * its size and SHA-256 must match; the skill's own SKILL.md must carry the entry's frontmatter.
   * A blob must be valid base64. `"dynamic"` skills skip listing, size and digest
   * (`verified: false`) but not the frontmatter, and may read at most `limits.bytes` in total under
   * one entry object (counted afresh for each entry `list()` or `get()` returns).
   *
   * When the bytes do not match the entry (size or digest), or the server says the entry changed,
   * the skill changed since the entry was fetched: unless `refresh` is off, the entry is asked for
   * again once (`skills/get`) and the file read against the new one, which the result then carries
   * as `skill` (hold it in place of the one passed). It fails only when that does not match either.
   *
   * With `trustedKeys`, the skill's signature is read and verified first, before any other of its
   * files (once per skill version: see {@link SkillsClient.verifySignature}); an invalid one, and
   * with `requireSignature` any but a verified one, refuses the skill. The verdict on the entry the
   * file was read against is returned as `signature`.
   *
   * @throws TypeError for an invalid entry or `ref` (before any request).
   * @throws {@link SkillVerificationError} when a check fails (against the entry asked for again,
   * when the first one did not match); the content is not returned.
   * @throws {@link SkillLimitError} when the skill is over a per-skill limit.
   * @throws {@link SkillResultError} when the server's contents do not name the requested file, or
   * the entry asked for again is invalid or another skill's.
   * @throws {@link SkillSignatureError} when the skill's signature refuses it (`code` says why).
   */
  async read(skill: SkillEntry, ref?: string, options?: RequestOptions): Promise<SkillFile> {
    try {
      return await this.#readAgainst(skill, ref, options);
    } catch (error) {
      if (!this.#refresh || !(error instanceof SkillVerificationError) || (error.reason !== 'size' && error.reason !== 'digest')) throw error;
      const { skill: fresh } = await this.get(skill.uri, options);
      return { ...(await this.#readAgainst(fresh, ref, options)), skill: fresh };
    }
  }

  /**
   * The verdict on `skill`'s signature (`skill.oms.sig`, read through the verified read, checked
   * with `verifySkillListing` against the entry's digests and this client's `trustedKeys`), for a
   * host that shows it or decides before reading. Kept per skill URI and skill digest: a second
   * call, or a `read()` of any file of the same skill version, does not read the signature again.
   * A client without `trustedKeys` judges with no key (a signed skill is then `untrusted-key`).
   * Never throws for the verdict itself; `read()` applies the refusals.
   *
   * @throws TypeError for an invalid entry (before any request).
   * @throws {@link SkillVerificationError} when the signature's bytes do not match the entry (the
   * skill changed: get the entry again), and as `read()` for the request itself.
   */
  async verifySignature(skill: SkillEntry, options?: RequestOptions): Promise<SkillSignatureVerdict> {
    checkEntry(skill, 'verifySignature()');
    this.#requireExtension(READ_METHOD);
    return this.#verdicts.of(skill, async (listed) => (await this.#fetch(skill, listedTarget(listed), options)).bytes);
  }

  async #readAgainst(skill: SkillEntry, ref: string | undefined, options: RequestOptions | undefined): Promise<SkillFile> {
    checkEntry(skill, 'read()');
    if (ref !== undefined && typeof ref !== 'string') throw new TypeError('read(skill, ref): ref must be a relative path or a URI string');
    const over = this.checkLimits(skill);
    if (over) throw new SkillLimitError(skill.uri, over);
    this.#requireExtension(READ_METHOD);
    const target = this.#target(skill, ref);
    if (target.skillMd && target.listed) checkSkillMdSize(skill, target.listed.uri, target.listed.size, 'listed');
    let signature: SkillSignatureVerdict | undefined;
    if (this.#signatures) {
      signature = await this.verifySignature(skill, options);
      const refused = signatureRefusal(skill, signature, this.#signatures.requireSignature);
      if (refused) throw refused;
    }

    const { item, bytes } = await this.#fetch(skill, target, options);
    const file: SkillFile = { uri: target.requestUri, bytes, verified: target.listed !== undefined };
    if (item.mimeType !== undefined) file.mimeType = item.mimeType;
    if (typeof item.text === 'string') file.text = item.text;
    if (signature) file.signature = signature;
    if (!target.skillMd) return file;
    const text = skillMdText(item, bytes);
    const { frontmatter, body } = checkSkillMd(skill, target.requestUri, text, this.#parseFrontmatter);
    return { ...file, text: text!, frontmatter, body };
  }

  /** Request one file and check it against the entry: the content names it, its size and digest (a listed file) or the dynamic tally. */
  async #fetch(skill: SkillEntry, target: Target, options: RequestOptions | undefined): Promise<{ item: ContentItem; bytes: Uint8Array }> {
    const params = target.listed ? { uri: target.requestUri, _meta: { [DIGEST_META_KEY]: target.listed.digest } } : { uri: target.requestUri };
    const result = await this.#request(READ_METHOD, params, ReadResourceEnvelopeSchema, options).catch((error: unknown) => {
      throw entryChangedError(error, target.requestUri, skill.uri) ?? error;
    });
    const matching = (result.contents as ContentItem[]).filter((item) => typeof item.uri === 'string' && canonicalUri(item.uri) === target.key);
    if (matching.length !== 1) {
      const got = result.contents.map((item) => item.uri).join(', ') || 'no contents';
      throw new SkillResultError(
        READ_METHOD,
        `${READ_METHOD} for ${target.requestUri} must return exactly one content item for that URI; it returned ${matching.length} (${got}). Nothing was used`,
      );
    }
    const item = matching[0]!;
    const bytes = contentBytes(item, target.requestUri, skill.uri);
    if (target.listed) {
      await checkListedFile(target.listed, bytes, skill.uri);
    } else {
      const over = this.#dynamicReads.add(skill, target.key, bytes.byteLength, this.#limits.bytes);
      if (over) throw new SkillLimitError(skill.uri, over);
    }
    return { item, bytes };
  }

  /**
   * The direct children of a folder (a skill root is its SKILL.md URI without `/SKILL.md`), every
   * page walked. A live view: it never extends what an entry lists. Needs `directoryRead`.
   *
   * @throws TypeError when `uri` is not a string.
   * @throws {@link SkillsUnsupportedError} when the server does not declare `directoryRead`.
   * @throws {@link SkillResultError} when a page of the result is invalid.
   */
  async readDirectory(uri: string, options?: RequestOptions): Promise<DirectoryListing> {
    if (typeof uri !== 'string') throw new TypeError('readDirectory(uri) needs a folder URI as a string');
    if (!this.directoryRead) {
      throw new SkillsUnsupportedError(
        METHOD_DIRECTORY_READ,
        `The server did not declare directoryRead for ${SKILLS_EXTENSION_ID}, ` +
          `so ${METHOD_DIRECTORY_READ} must not be called; use the files listed in the skill entry instead`,
      );
    }
    const pages = await walkPages(
      METHOD_DIRECTORY_READ,
      (cursor) => this.#request(METHOD_DIRECTORY_READ, cursor === undefined ? { uri } : { uri, cursor }, ReadDirectoryResultSchema, options),
      this.#maxPages,
    );
    const resources = pages.flatMap((page) => page.resources) as DirectoryResource[];
    const parent = canonicalUri(uri);
    if (parent !== undefined) {
      for (const child of resources) {
        const childUri = canonicalUri(child.uri);
        if (childUri === undefined || childUri.slice(0, childUri.lastIndexOf('/')) !== parent) {
          throw new SkillResultError(
            METHOD_DIRECTORY_READ,
            `${METHOD_DIRECTORY_READ} for ${uri} listed ${child.uri}, ` + `which is not a direct child of that folder; nothing was used`,
          );
        }
      }
    }
    return { resources, ...mergeCacheFields(pages) };
  }

  get #strict(): boolean {
    return enforcesStrictCapabilities(this.#client);
  }

  #requireExtension(method: string): void {
    if (this.supported) return;
    const declared = skillsCapabilityOf(this.#client.getServerCapabilities()) !== undefined;
    throw new SkillsUnsupportedError(
      method,
      declared
        ? `The server declared the ${SKILLS_EXTENSION_ID} extension but not the resources capability it requires, ` +
            `and the SDK client enforces strict capabilities, so ${method} is not used for skills; check supported first`
        : `The server did not declare the ${SKILLS_EXTENSION_ID} extension (or the client is not connected), ` +
            `so ${method} is not used for skills; check supported first`,
    );
  }

  // The SDK's request() is typed for the base protocol's methods; these are the extension's own.
  #request<T extends z.ZodType>(method: string, params: Record<string, unknown>, schema: T, options?: RequestOptions): Promise<z.output<T>> {
    return this.#client.request({ method, params } as unknown as ClientRequest, schema, options) as Promise<z.output<T>>;
  }

  /** Resolve `ref` and find it in the entry, before anything is requested. */
  #target(skill: SkillEntry, ref: string | undefined): Target {
    const folder = skillFolderOf(skill.uri)!;
    const skillKey = canonicalUri(skill.uri)!;
    const resolved = ref === undefined ? { ok: true as const, uri: skillKey } : resolveRef(folder, ref);
    if (!resolved.ok) {
      throw new SkillVerificationError(
        'unlisted',
        resolved.uri,
        skill.uri,
        `${resolved.error}, so it is not a file of the skill ${skill.uri}; nothing was requested. ` +
          `Name a file listed in the entry, by a path relative to the skill folder or by its URI`,
      );
    }
    const skillMd = resolved.uri === skillKey;
    if (skill.resources === 'dynamic') {
      // Nothing was published to match against: request the entry's spelling for SKILL.md, else the canonical one.
      return { requestUri: skillMd ? skill.uri : resolved.uri, key: resolved.uri, listed: undefined, skillMd };
    }
    const listed = skill.resources.find((r) => canonicalUri(r.uri) === resolved.uri);
    if (!listed) {
      throw new SkillVerificationError(
        'unlisted',
        resolved.uri,
        skill.uri,
        `${resolved.uri} is not listed in the entry of ${skill.uri}, so it is not read: ` +
          `an unlisted file means the skill changed. Refresh the entry with get(${JSON.stringify(skill.uri)}) and read again`,
      );
    }
    return { requestUri: listed.uri, key: resolved.uri, listed, skillMd };
  }
}

/** A listed file other than the skill's SKILL.md (its signature), as a target. */
const listedTarget = (listed: SkillResource): Target => ({ requestUri: listed.uri, key: canonicalUri(listed.uri)!, listed, skillMd: false });

/** Refuse what is not a valid entry, before any request. */
function checkEntry(skill: SkillEntry, method: string): void {
  const problems = entryProblems(skill);
  if (problems.length === 0) return;
  const name = typeof (skill as { uri?: unknown } | null)?.uri === 'string' ? skill.uri : 'the skill';
  throw new TypeError(`${method}: ${name} is not a valid skill entry (${problems.join('; ')}); pass an entry returned by list() or get()`);
}

/**
 * The server's word that the bytes the entry lists are gone (`-32602`, `data.reason:
 * 'entry-changed'`), as the verification failure it is; undefined for any other error.
 */
function entryChangedError(error: unknown, uri: string, skillUri: string): SkillVerificationError | undefined {
  const { code, data } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; data?: { reason?: unknown } };
  if (code !== JsonRpcErrorCode.InvalidParams || typeof data !== 'object' || data === null || data.reason !== ENTRY_CHANGED_REASON) return undefined;
  return new SkillVerificationError(
    'digest',
    uri,
    skillUri,
    `${uri}: the server no longer serves the bytes the skill entry lists (the skill was reloaded); ` +
      `nothing was used. Refresh the entry with get(${JSON.stringify(skillUri)}) and read again`,
    [],
    { cause: error },
  );
}
