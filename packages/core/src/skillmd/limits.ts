/**
 * Bounds on what a SKILL.md may make the YAML parser do, checked before the expensive work. The
 * same bounds apply to a catalog loading SKILL.md files and to a client verifying what a server sent.
 */

/** Agent Skills: the longest name, description and compatibility field, in characters. */
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/**
 * Largest SKILL.md, in bytes. The Agent Skills specification recommends a body under 500 lines
 * (about 5000 tokens, some 20 KiB); 1 MiB is fifty times that, so no real skill reaches it, while
 * decoding and scanning for the fences stays a matter of milliseconds.
 */
export const MAX_SKILL_MD_BYTES = 1024 * 1024;

/**
 * Largest frontmatter (the YAML between the `---` fences), in bytes. The fields the specification
 * defines fit in under 2 KiB (name 64, description 1024, compatibility 500 characters); 64 KiB
 * leaves room for generous metadata and keeps the worst-case parse to a fraction of a second.
 */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;

/**
 * Deepest nesting of mappings and sequences, the top-level mapping being 1 (`metadata: { a: b }`
 * is 2). Real frontmatter stays under 5; the parser and the JSON conversion recurse once per
 * level, so thousands of levels would exhaust the stack.
 */
export const MAX_FRONTMATTER_DEPTH = 32;

/** Most YAML nodes (every key, value and list item) in one frontmatter. Real frontmatter has tens. */
export const MAX_FRONTMATTER_NODES = 10_000;

/** Most alias expansions (`*name`) in one frontmatter: refuses "billion laughs" alias bombs. */
export const MAX_FRONTMATTER_ALIASES = 100;

const KIB = 1024;
const show = (bytes: number) => (bytes % (KIB * KIB) === 0 ? `${bytes / (KIB * KIB)} MiB` : `${bytes / KIB} KiB`);

/** Why a SKILL.md of `bytes` bytes is refused before it is decoded or parsed; undefined within the limit. */
export function skillMdSizeProblem(bytes: number): string | undefined {
  if (bytes <= MAX_SKILL_MD_BYTES) return undefined;
  return (
    `SKILL.md is ${bytes} bytes; the limit is ${show(MAX_SKILL_MD_BYTES)} (${MAX_SKILL_MD_BYTES} bytes). ` +
    `Move long material into files beside it (references/…) and link them from SKILL.md`
  );
}

/** Why a frontmatter of `bytes` bytes is refused before it is parsed; undefined within the limit. */
export function frontmatterSizeProblem(bytes: number): string | undefined {
  if (bytes <= MAX_FRONTMATTER_BYTES) return undefined;
  return (
    `the frontmatter is ${bytes} bytes; the limit is ${show(MAX_FRONTMATTER_BYTES)} (${MAX_FRONTMATTER_BYTES} bytes). ` +
    `Keep name, description and short fields in it and move the rest into the body`
  );
}
