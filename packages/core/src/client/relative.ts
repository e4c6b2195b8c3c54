import { SKILL_MD } from '../protocol/constants.js';
import { buildSkillUri, parseUri } from '../uri/canonical.js';
import { encodeSegment } from '../uri/segment.js';

/** A skill's folder: the lower-cased scheme and decoded path segments of its SKILL.md URI, minus `SKILL.md`. */
export interface SkillFolder {
  scheme: string;
  segments: readonly string[];
}

export type ResolvedRef = { ok: true; uri: string } | { ok: false; uri: string; error: string };

const HAS_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

// WHATWG URL resolution clamps `..` at the path root, so a ref is resolved against the skill
// folder placed under a sentinel folder (`/root/`): a `..` that climbs out of the skill folder then
// shows in the result instead of being swallowed, while `a/../b` and `../<own name>/b` still work.
const SENTINEL_HOST = 'ref';
const SENTINEL_ROOT = '/root/';

/** The folder of a skill, from its (already validated) SKILL.md URI. */
export function skillFolderOf(skillUri: string): SkillFolder | undefined {
  const parsed = parseUri(skillUri);
  if (!parsed.ok || parsed.segments.length < 2 || parsed.segments.at(-1) !== SKILL_MD) return undefined;
  return { scheme: parsed.scheme, segments: parsed.segments.slice(0, -1) };
}

/**
 * Resolve `ref` as a link in the skill's SKILL.md would be, against the skill folder: a relative
 * path (`references/FORMS.md`, `./a.md`, `a/../b.md`) or an absolute URI. A `#fragment` is
 * dropped; a query, a folder, or anything outside the skill folder is refused. The result is the
 * canonical spelling, so it compares equal to the entry's URI however either side encodes names.
 */
export function resolveRef(folder: SkillFolder, ref: string): ResolvedRef {
  const folderUri = buildSkillUri(folder.segments, folder.scheme);
  let target: string;
  if (HAS_SCHEME.test(ref)) {
    const hash = ref.indexOf('#');
    target = hash < 0 ? ref : ref.slice(0, hash);
  } else {
    const folderPath = `${SENTINEL_ROOT}${folder.segments.map((s) => encodeSegment(s)).join('/')}/`;
    let url: URL;
    try {
      url = new URL(ref, `skill-ref://${SENTINEL_HOST}${folderPath}`);
    } catch {
      return { ok: false, uri: ref, error: `"${ref}" is not a URI reference` };
    }
    if (url.search !== '') return { ok: false, uri: ref, error: `"${ref}" has a query; skill files are named by path only` };
    if (url.host !== SENTINEL_HOST || !url.pathname.startsWith(folderPath)) {
      return { ok: false, uri: ref, error: `"${ref}" leaves the skill folder ${folderUri}` };
    }
    const relative = url.pathname.slice(folderPath.length);
    if (relative === '' || relative.endsWith('/')) return { ok: false, uri: ref, error: `"${ref}" names a folder, not a file` };
    target = `${folderUri}/${relative}`;
  }
  const parsed = parseUri(target);
  if (!parsed.ok) return { ok: false, uri: target, error: `${target}: ${parsed.error}` };
  const inside =
    parsed.scheme === folder.scheme && parsed.segments.length > folder.segments.length && folder.segments.every((segment, i) => parsed.segments[i] === segment);
  const uri = buildSkillUri(parsed.segments, parsed.scheme);
  if (!inside) return { ok: false, uri, error: `${uri} is outside the skill folder ${folderUri}` };
  return { ok: true, uri };
}
