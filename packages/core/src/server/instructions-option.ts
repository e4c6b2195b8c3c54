/**
 * The `instructions` option: when a server's instructions name its skills, and the section's
 * budget and intro. Checked once, where the option is given (`OptionError`).
 */
import { describeValue, isPositiveInteger, numberProblem, type OptionFail } from '../option-checks.js';
import { SKILLS_EXTENSION_ID } from '../protocol/constants.js';
import type { InstructionsOption } from '../types.js';
import { DEFAULT_INSTRUCTIONS_BYTES, MAX_INSTRUCTIONS_BYTES, MAX_INTRO_BYTES, MIN_INSTRUCTIONS_BYTES, type SectionSettings } from './instructions.js';

/** The option, checked: `auto` for clients without the extension, `always`, or `off`. */
export interface InstructionsPlan extends SectionSettings {
  when: 'auto' | 'always' | 'off';
}

export const DEFAULT_INSTRUCTIONS_PLAN: InstructionsPlan = Object.freeze({ when: 'auto', maxBytes: DEFAULT_INSTRUCTIONS_BYTES });

const SHAPE = "must be 'auto', true, false or { maxBytes?: number, intro?: string }";

// Controls (line breaks included): the intro is one sentence on the section's first line.
const CONTROL = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export function checkInstructionsOption(value: InstructionsOption | undefined, fail: OptionFail): InstructionsPlan {
  if (value === undefined || value === 'auto') return DEFAULT_INSTRUCTIONS_PLAN;
  if (value === true) return { ...DEFAULT_INSTRUCTIONS_PLAN, when: 'always' };
  if (value === false) return { ...DEFAULT_INSTRUCTIONS_PLAN, when: 'off' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('invalid-type', 'instructions', `${SHAPE}, got ${describeValue(value)}`);
  const unknown = Object.keys(value).find((key) => key !== 'maxBytes' && key !== 'intro');
  if (unknown !== undefined) fail('unknown-option', `instructions.${unknown}`, 'is not an option of instructions: it takes maxBytes and intro');
  const { maxBytes = DEFAULT_INSTRUCTIONS_BYTES, intro } = value;
  if (!isPositiveInteger(maxBytes) || maxBytes < MIN_INSTRUCTIONS_BYTES || maxBytes > MAX_INSTRUCTIONS_BYTES) {
    fail(
      numberProblem(maxBytes),
      'instructions.maxBytes',
      `must be an integer from ${MIN_INSTRUCTIONS_BYTES} to ${MAX_INSTRUCTIONS_BYTES} (UTF-8 bytes of the whole section), got ${describeValue(maxBytes)}`,
    );
  }
  if (intro !== undefined) {
    if (typeof intro !== 'string') fail('invalid-type', 'instructions.intro', `must be a string (one sentence), got ${describeValue(intro)}`);
    const size = new TextEncoder().encode(intro).byteLength;
    if (intro.trim() === '' || size > MAX_INTRO_BYTES) {
      fail('invalid-value', 'instructions.intro', `must be 1 to ${MAX_INTRO_BYTES} UTF-8 bytes of text, got ${size} bytes: ${describeValue(intro)}`);
    }
    if (CONTROL.test(intro)) {
      fail('invalid-value', 'instructions.intro', `must be one line without control characters or line breaks, got ${describeValue(intro)}`);
    }
  }
  return { when: 'auto', maxBytes, ...(intro !== undefined ? { intro } : {}) };
}

/** Whether a client with these capabilities (an initialize's, or a 2026-07-28 request's `_meta`) gets the section. */
export function wantsSection(plan: InstructionsPlan, clientCapabilities: unknown): boolean {
  if (plan.when !== 'auto') return plan.when === 'always';
  const extensions = (clientCapabilities as { extensions?: unknown } | null | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return true;
  const declared = (extensions as Record<string, unknown>)[SKILLS_EXTENSION_ID];
  return declared === undefined || declared === null;
}
