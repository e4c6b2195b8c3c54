import { MAX_BYTES_PER_SKILL, MAX_FILES_PER_SKILL } from './constants.js';
import { MAX_FRONTMATTER_ALIASES, MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_NODES, MAX_SKILL_MD_BYTES } from '../skillmd/limits.js';

/**
 * Every limit in one object, for hosts and source authors: the extension's per-skill limits every
 * conforming host must accept (`files`, `bytes`), and the bounds on a SKILL.md that skillmount
 * parses, on the server and in the client alike (`skillMdBytes`, `frontmatter*`).
 */
export const SKILL_LIMITS = Object.freeze({
  /** Files in one skill's `resources`, SKILL.md included (the extension's limit). */
  files: MAX_FILES_PER_SKILL,
  /** Sum of `size` over one skill's `resources` (the extension's limit, 16 MiB). */
  bytes: MAX_BYTES_PER_SKILL,
  /** Largest SKILL.md parsed (1 MiB). */
  skillMdBytes: MAX_SKILL_MD_BYTES,
  /** Largest frontmatter parsed, the YAML between the `---` fences (64 KiB). */
  frontmatterBytes: MAX_FRONTMATTER_BYTES,
  /** Deepest nesting of mappings and sequences in a frontmatter. */
  frontmatterDepth: MAX_FRONTMATTER_DEPTH,
  /** Most YAML nodes in one frontmatter. */
  frontmatterNodes: MAX_FRONTMATTER_NODES,
  /** Most alias expansions in one frontmatter. */
  frontmatterAliases: MAX_FRONTMATTER_ALIASES,
});
