/**
 * A skill's version as it is shown (the CLI's tables, the server's instructions, prompt
 * descriptions, the `/.well-known/agent-skills` index): Agent Skills keeps it in the frontmatter's
 * `metadata.version`, a string. The frontmatter is tenant-written, and on the host side a server's:
 * anything but a string there is no version, and a string goes through the same visible-text
 * policy as a description, cut short, so it cannot add lines, hide text or fill a line.
 */
import { visibleLine } from './visible.js';

/** A version is cut to at most this many characters (grapheme clusters, the ellipsis included). */
export const VERSION_CHARS = 32;
/** …and to at most this many UTF-8 bytes (4 per character: every character could be an emoji). */
export const VERSION_BYTES = 4 * VERSION_CHARS;

/**
 * The version a skill's frontmatter names in `metadata.version`, as one visible line of at most 32
 * characters (text/visible.ts's policy: hidden characters removed, controls and line breaks made
 * spaces, cut with `…`); undefined when there is none, when `metadata` is not a mapping, when the
 * version is not a string, or when nothing of it is visible.
 *
 * @example
 * ```ts
 * import { skillVersion } from '@skillmount/core';
 *
 * skillVersion({ name: 'pdf', description: 'PDFs', metadata: { version: '1.2.0' } }); // '1.2.0'
 * skillVersion({ name: 'pdf', description: 'PDFs', metadata: { version: 3 } }); // undefined
 * skillVersion({ name: 'pdf', description: 'PDFs', metadata: { version: '1.0\n- hidden' } }); // '1.0 - hidden'
 * ```
 * @throws Nothing: anything that is not a frontmatter with a string `metadata.version` gives undefined.
 */
export function skillVersion(frontmatter: unknown): string | undefined {
  if (frontmatter === null || typeof frontmatter !== 'object') return undefined;
  const metadata = (frontmatter as { metadata?: unknown }).metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined;
  // Own property only: a key named like Object.prototype's members is not a version.
  if (!Object.hasOwn(metadata, 'version')) return undefined;
  const version = (metadata as { version?: unknown }).version;
  if (typeof version !== 'string') return undefined;
  return visibleLine(version, { maxGraphemes: VERSION_CHARS, maxBytes: VERSION_BYTES }) || undefined;
}
