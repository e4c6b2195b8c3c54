/**
 * The per-request visibility rule: `visible(entry, ctx)` from the app (an adapter's or attach's
 * `visible` option) and from the source itself (`SkillSource.visible`). A skill is shown only
 * when every rule given says `true`. The skills service asks it on every method, and a hidden
 * skill gets the very answer a missing one gets.
 */
import { internalError } from '../errors.js';
import { SKILL_MD } from '../protocol/constants.js';
import { buildSkillUri, parseUri } from '../uri/canonical.js';
import type { BaseUri } from '../uri/base.js';
import type { SkillContext, SkillEntry, SkillVisibility, SkillWarning } from '../types.js';

export class Visibility {
  readonly #rules: readonly SkillVisibility[];
  readonly #tell: (warning: SkillWarning) => void;

  constructor(rules: readonly SkillVisibility[], tell: (warning: SkillWarning) => void) {
    this.#rules = rules;
    this.#tell = tell;
  }

  /** The rules of `visible` (an option) and of the source, or undefined when there is none. */
  static of(option: SkillVisibility | undefined, source: { visible?: SkillVisibility }, tell: (warning: SkillWarning) => void): Visibility | undefined {
    const rules: SkillVisibility[] = [];
    if (option !== undefined) rules.push(option);
    if (typeof source.visible === 'function') rules.push((entry, ctx) => source.visible!(entry, ctx));
    return rules.length > 0 ? new Visibility(rules, tell) : undefined;
  }

  /**
   * Whether the request may see `entry`: true only when every rule returns `true`. Sync while the
   * rules are. Anything but a boolean hides the skill (told once); a rule that throws fails the
   * request with -32603, told each time with its error.
   */
  allows(entry: SkillEntry, ctx: SkillContext): boolean | Promise<boolean> {
    for (let i = 0; i < this.#rules.length; i++) {
      let shown: boolean | Promise<boolean>;
      try {
        shown = this.#rules[i]!(entry, ctx);
      } catch (error) {
        throw this.#failed(entry, error);
      }
      if (shown === true) continue;
      if (isThenable(shown)) return this.#settle(shown, i, entry, ctx);
      return this.#notBoolean(entry, shown);
    }
    return true;
  }

  async #settle(pending: Promise<boolean>, index: number, entry: SkillEntry, ctx: SkillContext): Promise<boolean> {
    let shown: unknown;
    try {
      shown = await pending;
    } catch (error) {
      throw this.#failed(entry, error);
    }
    if (shown !== true) return shown === false ? false : this.#notBoolean(entry, shown);
    for (let i = index + 1; i < this.#rules.length; i++) {
      let next: unknown;
      try {
        next = await this.#rules[i]!(entry, ctx);
      } catch (error) {
        throw this.#failed(entry, error);
      }
      if (next !== true) return next === false ? false : this.#notBoolean(entry, next);
    }
    return true;
  }

  /**
   * Ask the rules about a URI that names no skill, with a stand-in entry, and ignore the answer:
   * a hidden skill and a missing one then cost the same work (and the same time).
   */
  async askForMissing(uri: string, ctx: SkillContext): Promise<void> {
    await this.allows(standIn(uri), ctx);
  }

  #notBoolean(entry: SkillEntry, shown: unknown): false {
    if (shown === false) return false;
    this.#tell({
      code: 'invalid-visible',
      uri: entry.uri,
      message: `visible() returned ${shown === null ? 'null' : typeof shown}, not true or false; the skill is hidden. Return a boolean (or a promise of one)`,
    });
    return false;
  }

  #failed(entry: SkillEntry, error: unknown): Error {
    const reason = error instanceof Error ? error.message : String(error);
    this.#tell({ code: 'visible-failed', uri: entry.uri, message: `visible() threw for ${entry.uri}: ${reason}; the request failed with -32603` });
    return internalError('The server could not decide which skills this request may see; try again later');
  }
}

function isThenable(value: unknown): value is Promise<boolean> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The entry a rule is shown for a URI that names no skill: the URI, a name from its path, nothing else. */
function standIn(uri: string): SkillEntry {
  const parsed = parseUri(uri);
  const segments = parsed.ok ? parsed.segments : [];
  const folder = segments.at(-1) === SKILL_MD ? segments.at(-2) : segments.at(-1);
  return { uri, frontmatter: { name: folder ?? '', description: '' }, resources: [] };
}

/**
 * The SKILL.md URIs of the skills that could hold `uri` (a file, or with `directory` a folder),
 * nearest first: one per folder on its path below the base URI. Empty for a malformed URI.
 */
export function holdingCandidates(base: BaseUri, uri: string, kind: 'file' | 'directory'): string[] {
  const parsed = parseUri(uri);
  if (!parsed.ok || parsed.scheme !== base.scheme) return [];
  const folders = kind === 'directory' ? parsed.segments : parsed.segments.slice(0, -1);
  const candidates: string[] = [];
  for (let end = folders.length; end > base.segments.length; end--) candidates.push(buildSkillUri([...folders.slice(0, end), SKILL_MD], parsed.scheme));
  return candidates;
}
