/**
 * The skills section of a server's `instructions`, built from listed skills within a byte budget.
 * Pure: no I/O. Hosts that do not speak the Skills extension still show a server's instructions
 * to the model, and read resources; this section is how such a host learns which skills exist
 * and where their SKILL.md files are. Names and descriptions are tenant-written text: control
 * characters, line breaks and bidirectional overrides are taken out, so one skill cannot add
 * lines (or hide text) in the section, and angle brackets are replaced, so it cannot plant a URI.
 */

/** One skill as the section names it. */
export interface PointerSkill {
  name: string;
  description: string;
  /** The skill's SKILL.md URI. */
  uri: string;
}

/** The budget and the wording a section is built with. */
export interface SectionSettings {
  /** The whole section's size in UTF-8 bytes, intro included. */
  maxBytes: number;
  /** Replaces the default first sentence. */
  intro?: string;
}

/** How many skills come after the listed ones: a count, or `'unknown'` when counting stopped. */
export type SkillsAfter = number | 'unknown';

export const DEFAULT_INSTRUCTIONS_BYTES = 2048;
/** A budget below this could not hold the longest intro, the guidance and a "more skills" line. */
export const MIN_INSTRUCTIONS_BYTES = 512;
export const MAX_INSTRUCTIONS_BYTES = 65_536;
/** Longest intro, in UTF-8 bytes. */
export const MAX_INTRO_BYTES = 300;
/** Descriptions are cut to about this many characters (graphemes), at a word boundary. */
export const DESCRIPTION_CHARS = 120;

export const DEFAULT_INTRO = 'This server offers Agent Skills: folders of instructions and files for specific tasks.';
const GUIDANCE =
  "Before a task that matches a skill below, read its SKILL.md with resources/read; the skill's other files sit under the same URI, " +
  'relative to its SKILL.md.';

const utf8 = new TextEncoder();
const bytesOf = (text: string) => utf8.encode(text).byteLength;

// C0/C1 controls, line and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates.
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** Tenant-written text on one line: controls and line breaks become spaces, runs of spaces one. */
export function oneLine(text: string): string {
  return text.replace(UNSAFE, ' ').replace(/\s+/gu, ' ').trim();
}

/** Whether `uri` can stand in the section as written: printable ASCII, no space and no angle bracket. */
export function isPlainUri(uri: string): boolean {
  return /^[\x21-\x7e]+$/.test(uri) && !/[<>]/.test(uri);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` (one line already) cut to about `max` characters at a word boundary, with an ellipsis when cut. */
export function cutAtWord(text: string, max = DESCRIPTION_CHARS): string {
  // No more UTF-16 units than `max`, so no more characters either: nothing to segment.
  if (text.length <= max) return text;
  const parts = Array.from(graphemes.segment(text), (s) => s.segment);
  if (parts.length <= max) return text;
  const head = parts.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  // A word boundary in the last third; a single long word is cut where it is.
  const cut = space >= (head.length * 2) / 3 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s.,;:!?-]+$/u, '')}…`;
}

/** Angle brackets in tenant text become look-alikes: the only `<…>` in the section are the server's URIs. */
const unbracketed = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

/** The line for one skill: `- name: description <uri>` (the URI in angle brackets, so it ends unambiguously). */
export function skillLine(skill: PointerSkill): string {
  const name = unbracketed(oneLine(skill.name));
  const description = unbracketed(cutAtWord(oneLine(skill.description)));
  return `- ${name}${description ? `: ${description}` : ''} <${skill.uri}>`;
}

function moreLine(after: SkillsAfter): string {
  if (after === 'unknown') return 'More skills: see resources/list.';
  return `${after} more skill${after === 1 ? '' : 's'}: see resources/list.`;
}

/**
 * The section: the intro and the guidance, one line per skill that fits, then how many more there
 * are. `skills` are the ones listed (in order); `after` counts those past them. The whole text is
 * at most `maxBytes` UTF-8 bytes (given the intro's and the budget's checked bounds); undefined
 * when there is no skill to name.
 */
export function skillsSection(skills: readonly PointerSkill[], after: SkillsAfter, settings: SectionSettings): string | undefined {
  if (skills.length === 0 && after === 0) return undefined;
  const head = `${oneLine(settings.intro ?? DEFAULT_INTRO)} ${GUIDANCE}`;
  const lines = skills.map(skillLine);
  // Each line costs its bytes and a newline; the "more" line is counted for the skills left out.
  let used = bytesOf(head);
  let fitted = 0;
  // Room kept for the "more" line at its longest (the most skills it could name), so it always fits.
  const moreRoom = 1 + bytesOf(moreLine(after === 'unknown' ? 'unknown' : after + lines.length)) + 1;
  for (const line of lines) {
    const last = fitted === lines.length - 1 && after === 0;
    const tail = last ? 0 : moreRoom;
    const cost = 1 + bytesOf(line);
    if (used + cost + tail > settings.maxBytes) break;
    used += cost;
    fitted++;
  }
  const left = lines.length - fitted;
  const out = [head, ...lines.slice(0, fitted)];
  if (left > 0 || after !== 0) out.push(moreLine(after === 'unknown' ? 'unknown' : after + left));
  return out.join('\n');
}

/** The app's instructions unchanged, a blank line, then the section; the section alone when the app has none. */
export function withSection(appInstructions: string | undefined, section: string | undefined): string | undefined {
  if (section === undefined) return appInstructions;
  return appInstructions ? `${appInstructions}\n\n${section}` : section;
}
