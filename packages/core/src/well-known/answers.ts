/**
 * The `/.well-known/agent-skills/` surface as answers, before any HTTP: the index of the skills
 * the request may see, each one-file skill's SKILL.md, and each other skill's archive. Every
 * answer comes from the one skills service (`SkillHandlers`): its `list` (so `visible()` and the
 * tenant's catalog apply) and its `read` (so every byte is checked against its published digest).
 * A path that names nothing the request may see answers `undefined`, whatever the reason.
 */
import { sha256Digest } from '../bytes/digest.js';
import type { SkillHandlers } from '../server/handlers.js';
import type { CacheHint, SkillContext, SkillEntry, SkillWarning } from '../types.js';
import { ArtifactStore } from './artifacts.js';
import { KeptArchives } from './kept-archives.js';
import { DISCOVERY_SCHEMA, INSTALLER_LIMITS, MAX_LISTED } from './rules.js';
import { type Candidate, selectCandidates } from './select.js';
import { skillVersion } from '../text/skill-version.js';
import { visibleLine } from '../text/visible.js';
import { wellKnownChannel, type WellKnownAnswerMessage } from '../telemetry/channels.js';

/** One answer, ready to frame: the bytes, their ETag (a quoted `sha256:` digest) and freshness. */
export interface WellKnownAnswer {
  /** Absent when the request needs no body (a HEAD, a conditional GET its ETag answers) and none was at hand. */
  body?: Uint8Array;
  /** The body's length in bytes, known with or without it. */
  size: number;
  digest: string;
  contentType: string;
  cacheHint: CacheHint;
}

/** What a path under `/.well-known/agent-skills/` names. */
export type WellKnownTarget = { kind: 'index' } | { kind: 'skill-md'; name: string } | { kind: 'archive'; name: string };

const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
const SKILL_MD_PATH = new RegExp(`^(${NAME})/SKILL\\.md$`);
const ARCHIVE_PATH = new RegExp(`^(${NAME})\\.zip$`);
/** Each target's route template, for the app's HTTP span (`http.route`). */
const ROUTES = {
  index: '/.well-known/agent-skills/index.json',
  'skill-md': '/.well-known/agent-skills/{name}/SKILL.md',
  archive: '/.well-known/agent-skills/{name}.zip',
} as const;
/** Longer paths name nothing (a name is at most 64 characters). */
const MAX_PATH = 100;

/**
 * What `path` (after the prefix, as it came on the wire, without its query) names, or undefined.
 * Nothing is decoded: only the exact spellings the index publishes match, so `%2e%2e`, `..`,
 * backslashes and encoded slashes name nothing.
 */
export function targetOf(path: string): WellKnownTarget | undefined {
  if (path.length > MAX_PATH) return undefined;
  if (path === 'index.json') return { kind: 'index' };
  const skillMd = SKILL_MD_PATH.exec(path);
  if (skillMd && skillMd[1]!.length <= 64) return { kind: 'skill-md', name: skillMd[1]! };
  const archive = ARCHIVE_PATH.exec(path);
  if (archive && archive[1]!.length <= 64) return { kind: 'archive', name: archive[1]! };
  return undefined;
}

/** Whether the request needs the body of an answer with this digest: false for a HEAD, or a conditional GET the digest answers. */
export type WantsBody = (digest: string) => boolean;

export class WellKnownAnswers {
  readonly #service: SkillHandlers;
  readonly #tell: (warning: SkillWarning) => void;
  /** Archive bytes, one memory for every tenant. */
  readonly #kept = new KeptArchives();
  /** Each tenant's archives, by the source that answers it (a tenant's catalog), gone with it. */
  readonly #stores = new WeakMap<object, ArtifactStore>();
  readonly #forget = new FinalizationRegistry<number>((tenant) => this.#kept.forget(tenant));
  #tenants = 0;

  /** `tell` receives the `well-known-skipped` warnings (told once per skill URI by its caller's rule). */
  constructor(service: SkillHandlers, tell: (warning: SkillWarning) => void) {
    this.#service = service;
    this.#tell = tell;
  }

  /** Memory the built archives hold, in bytes, over every tenant. */
  get archiveBytes(): number {
    return this.#kept.size;
  }

  async answer(target: WellKnownTarget, ctx: SkillContext, wantsBody: WantsBody = () => true): Promise<WellKnownAnswer | undefined> {
    const answer = await this.#answer(target, ctx, wantsBody);
    if (answer && wellKnownChannel.hasSubscribers) {
      const message: WellKnownAnswerMessage = target.kind === 'index' ? { route: ROUTES.index, ctx } : { route: ROUTES[target.kind], skill: target.name, ctx };
      wellKnownChannel.publish(message);
    }
    return answer;
  }

  async #answer(target: WellKnownTarget, ctx: SkillContext, wantsBody: WantsBody): Promise<WellKnownAnswer | undefined> {
    if (target.kind === 'index') {
      const { candidates, cacheHint } = await this.#candidates(ctx);
      return this.#index(candidates, cacheHint, ctx);
    }
    const { candidate, cacheHint } = await this.#candidateNamed(target.name, ctx);
    if (!candidate || candidate.type !== target.kind) return undefined;
    const { entry } = candidate;
    if (candidate.type === 'skill-md') {
      const file = candidate.files[0]!;
      const answer = { size: file.size, digest: file.digest, contentType: 'text/markdown; charset=utf-8', cacheHint };
      if (!wantsBody(file.digest)) return answer;
      const body = await this.#read(file.uri, ctx);
      this.#service.wellKnownLoad(entry.uri, entry.frontmatter.name, body.byteLength, ctx);
      return { ...answer, body };
    }
    const store = await this.#storeFor(ctx);
    const built = await store.archive(candidate, this.#reader(ctx), wantsBody, ctx.signal);
    if (built.size > INSTALLER_LIMITS.downloadBytes) return undefined;
    // One load per archive sent, not one per file in it; a HEAD or a 304 is none.
    if (built.bytes && wantsBody(built.digest)) this.#service.wellKnownLoad(entry.uri, entry.frontmatter.name, built.size, ctx);
    return { ...(built.bytes ? { body: built.bytes } : {}), size: built.size, digest: built.digest, contentType: 'application/zip', cacheHint };
  }

  /** The archive store of the tenant `ctx` belongs to: keyed by the source that answers it. */
  async #storeFor(ctx: SkillContext): Promise<ArtifactStore> {
    const answering = await this.#service.answeringSource(ctx);
    let store = this.#stores.get(answering);
    if (!store) {
      const tenant = ++this.#tenants;
      store = new ArtifactStore(this.#kept, tenant);
      this.#stores.set(answering, store);
      this.#forget.register(answering, tenant);
    }
    return store;
  }

  /**
   * The skill the index publishes as `name` for this request, if any. A catalog finds it among the
   * skills bearing the name, in time that does not grow with the catalog; the index is listed
   * only for another source, or a catalog with more skills than an index lists (is it among them?).
   */
  async #candidateNamed(name: string, ctx: SkillContext): Promise<{ candidate: Candidate | undefined; cacheHint: CacheHint }> {
    const named = await this.#service.named(name, ctx);
    if (named && named.served <= MAX_LISTED) {
      // The first of them the installer would take, as the index chooses among everything it lists.
      const candidate = selectCandidates(named.bearing, this.#tell)[0];
      return { candidate, cacheHint: { ttlMs: named.ttlMs, cacheScope: named.cacheScope } };
    }
    const { candidates, cacheHint } = await this.#candidates(ctx);
    return { candidate: candidates.find((c) => c.name === name), cacheHint };
  }

  /** The skills the request may see, as the index publishes them, and the cache hint of the source that answered. */
  async #candidates(ctx: SkillContext): Promise<{ candidates: Candidate[]; cacheHint: CacheHint }> {
    const entries: SkillEntry[] = [];
    let cursor: string | undefined;
    let cacheHint: CacheHint | undefined;
    do {
      const page = await this.#service.list(cursor, ctx);
      cacheHint ??= { ttlMs: page.ttlMs, cacheScope: page.cacheScope };
      entries.push(...page.skills);
      cursor = page.nextCursor;
    } while (cursor !== undefined && entries.length < MAX_LISTED);
    if (cursor !== undefined) {
      this.#tell({
        code: 'well-known-skipped',
        message: `/.well-known/agent-skills/index.json lists the first ${entries.length} skills only; the others are left out`,
      });
    }
    return { candidates: selectCandidates(entries, this.#tell), cacheHint: cacheHint! };
  }

  async #index(candidates: readonly Candidate[], cacheHint: CacheHint, ctx: SkillContext): Promise<WellKnownAnswer> {
    const skills: Record<string, string>[] = [];
    const store = await this.#storeFor(ctx);
    const read = this.#reader(ctx);
    for (const candidate of candidates) {
      const { name, type } = candidate;
      const description = visibleLine(candidate.description) || name; // as shown to a person: nothing unseen (text/visible.ts)
      // An entry's other fields are the installer's to ignore; a version only where the skill names one.
      const version = skillVersion(candidate.entry.frontmatter);
      const shown: Record<string, string> = version === undefined ? { name, description } : { name, description, version };
      if (type === 'skill-md') {
        skills.push({ ...shown, type, url: `${name}/SKILL.md`, digest: candidate.files[0]!.digest });
        continue;
      }
      const built = await store.archive(candidate, read, () => false, ctx.signal);
      if (built.size > INSTALLER_LIMITS.downloadBytes) {
        this.#tell({
          code: 'well-known-skipped',
          uri: candidate.entry.uri,
          message:
            `${candidate.entry.uri} is left out of /.well-known/agent-skills/index.json: its archive is ${built.size} bytes, ` +
            `over the ${INSTALLER_LIMITS.downloadBytes} bytes the installer downloads`,
        });
        continue;
      }
      skills.push({ ...shown, type, url: `${name}.zip`, digest: built.digest });
    }
    const body = Buffer.from(`${JSON.stringify({ $schema: DISCOVERY_SCHEMA, skills }, null, 2)}\n`, 'utf8');
    return { body, size: body.byteLength, digest: sha256Digest(body), contentType: 'application/json', cacheHint };
  }

  /** Reads for an archive build: the request's context, on the build's own signal. */
  #reader(ctx: SkillContext): (uri: string, signal: AbortSignal) => Promise<Uint8Array> {
    return (uri, signal) => this.#read(uri, { ...ctx, signal });
  }

  /** One file's bytes through the service: visible to this request, and checked against its digest. */
  async #read(uri: string, ctx: SkillContext): Promise<Uint8Array> {
    const { contents } = await this.#service.read(uri, ctx, 'well-known');
    const content = contents[0]!;
    return 'text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
  }
}
