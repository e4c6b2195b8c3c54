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
import { DISCOVERY_SCHEMA, INSTALLER_LIMITS } from './rules.js';
import { type Candidate, selectCandidates } from './select.js';

/** One answer, ready to frame: the bytes, their ETag (a quoted `sha256:` digest) and freshness. */
export interface WellKnownAnswer {
  body: Uint8Array;
  digest: string;
  contentType: string;
  cacheHint: CacheHint;
}

/** What a path under `/.well-known/agent-skills/` names. */
export type WellKnownTarget = { kind: 'index' } | { kind: 'skill-md'; name: string } | { kind: 'archive'; name: string };

/** Skills one index lists at most; a catalog with more publishes the first ones (a warning says so). */
const MAX_LISTED = 10_000;
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
const SKILL_MD_PATH = new RegExp(`^(${NAME})/SKILL\\.md$`);
const ARCHIVE_PATH = new RegExp(`^(${NAME})\\.zip$`);
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

export class WellKnownAnswers {
  readonly #service: SkillHandlers;
  readonly #tell: (warning: SkillWarning) => void;
  readonly #store = new ArtifactStore();

  /** `tell` receives the `well-known-skipped` warnings (told once per skill URI by its caller's rule). */
  constructor(service: SkillHandlers, tell: (warning: SkillWarning) => void) {
    this.#service = service;
    this.#tell = tell;
  }

  /** Memory the built archives hold, in bytes. */
  get archiveBytes(): number {
    return this.#store.size;
  }

  async answer(target: WellKnownTarget, ctx: SkillContext): Promise<WellKnownAnswer | undefined> {
    const { candidates, cacheHint } = await this.#candidates(ctx);
    if (target.kind === 'index') return this.#index(candidates, cacheHint, ctx);
    const candidate = candidates.find((c) => c.name === target.name);
    if (!candidate || candidate.type !== target.kind) return undefined;
    if (candidate.type === 'skill-md') {
      const file = candidate.files[0]!;
      const body = await this.#read(file.uri, ctx);
      return { body, digest: file.digest, contentType: 'text/markdown; charset=utf-8', cacheHint };
    }
    const built = await this.#store.archive(candidate, (uri) => this.#read(uri, ctx), true);
    if (built.size > INSTALLER_LIMITS.downloadBytes) return undefined;
    return { body: built.bytes!, digest: built.digest, contentType: 'application/zip', cacheHint };
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
    for (const candidate of candidates) {
      const { name, description, type } = candidate;
      if (type === 'skill-md') {
        skills.push({ name, description, type, url: `${name}/SKILL.md`, digest: candidate.files[0]!.digest });
        continue;
      }
      const built = await this.#store.archive(candidate, (uri) => this.#read(uri, ctx), false);
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
      skills.push({ name, description, type, url: `${name}.zip`, digest: built.digest });
    }
    const body = Buffer.from(`${JSON.stringify({ $schema: DISCOVERY_SCHEMA, skills }, null, 2)}\n`, 'utf8');
    return { body, digest: sha256Digest(body), contentType: 'application/json', cacheHint };
  }

  /** One file's bytes through the service: visible to this request, and checked against its digest. */
  async #read(uri: string, ctx: SkillContext): Promise<Uint8Array> {
    const { contents } = await this.#service.read(uri, ctx);
    const content = contents[0]!;
    return 'text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.blob, 'base64');
  }
}
