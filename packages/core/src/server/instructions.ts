/**
 * The skills section of a server's `instructions`, built from listed skills within a byte budget.
 * Pure: no I/O. Hosts that do not speak the Skills extension still show a server's instructions
 * to the model, and read resources; this section is how such a host learns which skills exist
 * and where their SKILL.md files are. Names and descriptions are tenant-written text: they go
 * through the visible-text policy (text/visible.ts: controls and line breaks become spaces,
 * invisible and direction-changing characters are removed, marks per character are capped), so
 * one skill cannot add lines or hide text in the section, and angle brackets are replaced, so it
 * cannot plant a URI. Each line is bounded in bytes; one that does not fit is left out and the
 * lines after it still get their turn.
 */
import { VERSION_BYTES } from '../text/skill-version.js';
import { visibleLine } from '../text/visible.js';

/** One skill as the section names it. */
export interface PointerSkill {
  name: string;
  description: string;
  /** Its `metadata.version`, already through the text policy (`skillVersion`); absent when it has none. */
  version?: string;
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
/** Descriptions are cut to at most this many characters (grapheme clusters, the ellipsis included), at a word boundary. */
export const DESCRIPTION_CHARS = 120;
/** …and to at most this many UTF-8 bytes (4 per character: every character could be an emoji). */
export const DESCRIPTION_BYTES = 4 * DESCRIPTION_CHARS;
/** Names are cut likewise (a valid name is at most 64 characters of a-z, 0-9 and hyphens). */
const NAME_CHARS = 64;
const NAME_BYTES = 4 * NAME_CHARS;

export const DEFAULT_INTRO = 'This server offers Agent Skills: folders of instructions and files for specific tasks.';
const GUIDANCE =
  "Before a task that matches a skill below, read its SKILL.md with resources/read; the skill's other files sit under the same URI, " +
  'relative to its SKILL.md.';

const utf8 = new TextEncoder();
const bytesOf = (text: string) => utf8.encode(text).byteLength;

/** Whether `uri` can stand in the section as written: printable ASCII, no space and no angle bracket. */
export function isPlainUri(uri: string): boolean {
  return /^[\x21-\x7e]+$/.test(uri) && !/[<>]/.test(uri);
}

/** Angle brackets in tenant text become look-alikes: the only `<…>` in the section are the server's URIs. */
const unbracketed = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

/**
 * The line for one skill: `- name (version 1.2.0): description <uri>` (the version only when the
 * skill has one; the URI in angle brackets, so it ends unambiguously). Name and description are
 * cut after their brackets are replaced, so the line is at most
 * 4 + NAME_BYTES + 11 + VERSION_BYTES + 1 + 2 + DESCRIPTION_BYTES bytes besides its URI.
 */
export function skillLine(skill: PointerSkill): string {
  const name = visibleLine(unbracketed(skill.name), { maxGraphemes: NAME_CHARS, maxBytes: NAME_BYTES });
  const description = visibleLine(unbracketed(skill.description), { maxGraphemes: DESCRIPTION_CHARS, maxBytes: DESCRIPTION_BYTES });
  // Cut again after the brackets are replaced (‹ is three bytes where < was one).
  const version = skill.version ? visibleLine(unbracketed(skill.version), { maxBytes: VERSION_BYTES }) : '';
  return `- ${name}${version ? ` (version ${version})` : ''}${description ? `: ${description}` : ''} <${skill.uri}>`;
}

function moreLine(after: SkillsAfter): string {
  if (after === 'unknown') return 'More skills: see resources/list.';
  return `${after} more skill${after === 1 ? '' : 's'}: see resources/list.`;
}

/**
 * Skills whose lines were left out of a section while a later one was named, or that could not
 * fit in any section of its budget: told to the app once per section built.
 */
export type OnSkipped = (skipped: readonly PointerSkill[]) => void;

/**
 * The section: the intro and the guidance, one line per skill that fits, then how many more there
 * are. `skills` are the ones listed (in order); `after` counts those past them. A line that does
 * not fit is left out and the next ones still get their turn; the "more" line counts it, and
 * `onSkipped` hears of it unless the budget was simply full (no later line named, and the line
 * would fit in a section of its own). The whole text is at most `maxBytes` UTF-8 bytes (given the
 * intro's and the budget's checked bounds); undefined when there is no skill to name.
 */
export function skillsSection(skills: readonly PointerSkill[], after: SkillsAfter, settings: SectionSettings, onSkipped?: OnSkipped): string | undefined {
  if (skills.length === 0 && after === 0) return undefined;
  const head = `${visibleLine(settings.intro ?? DEFAULT_INTRO)} ${GUIDANCE}`;
  const lines = skills.map(skillLine);
  // Each line costs its bytes and a newline; the "more" line is counted for the skills left out.
  const headBytes = bytesOf(head);
  let used = headBytes;
  // Room kept for the "more" line at its longest (the most skills it could name), so it always fits.
  const moreRoom = 1 + bytesOf(moreLine(after === 'unknown' ? 'unknown' : after + lines.length)) + 1;
  const named: string[] = [];
  const leftOut: { at: number; tooLong: boolean }[] = [];
  let lastNamed = -1;
  lines.forEach((line, at) => {
    // The last line needs no room after it when every other was named and no skill comes after.
    const tail = at === lines.length - 1 && leftOut.length === 0 && after === 0 ? 0 : moreRoom;
    const cost = 1 + bytesOf(line);
    if (used + cost + tail > settings.maxBytes) {
      leftOut.push({ at, tooLong: headBytes + cost + moreRoom > settings.maxBytes });
      return;
    }
    used += cost;
    named.push(line);
    lastNamed = at;
  });
  const skipped = leftOut.filter((l) => l.tooLong || l.at < lastNamed).map((l) => skills[l.at]!);
  if (skipped.length > 0) onSkipped?.(skipped);
  const out = [head, ...named];
  if (leftOut.length > 0 || after !== 0) out.push(moreLine(after === 'unknown' ? 'unknown' : after + leftOut.length));
  return out.join('\n');
}

/** The app's instructions unchanged, a blank line, then the section; the section alone when the app has none. */
export function withSection(appInstructions: string | undefined, section: string | undefined): string | undefined {
  if (section === undefined) return appInstructions;
  return appInstructions ? `${appInstructions}\n\n${section}` : section;
}
