/**
 * Text from a server, a storage or a file name, made safe to print: control characters that a
 * terminal would act on (clipboard writes through OSC 52, window titles, screen clears, hidden
 * text) or that reorder what is shown (bidirectional overrides) are written out as escapes.
 */

// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this module's job
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;
// The same, less newline and tab: for a message whose own lines and indents are its layout.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this module's job
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

const escapeOne = (char: string): string => {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * `text` with every control character, DEL and bidirectional control written as `\xHH` or
 * `\uHHHH`, and unpaired surrogates replaced. With `lines`, newlines and tabs stay as they are.
 *
 * @example
 * ```ts
 * import { escapeControls } from '@skillmount/core';
 *
 * escapeControls('name\x1b[31m'); // 'name\\x1b[31m'
 * escapeControls('a\nb', { lines: true }); // 'a\nb'
 * ```
 * @throws Nothing.
 */
export function escapeControls(text: string, options: { lines?: boolean } = {}): string {
  return String(text)
    .toWellFormed()
    .replace(options.lines ? UNSAFE_IN_LINES : UNSAFE, escapeOne);
}

const FIRST_UNSAFE = new RegExp(UNSAFE.source, 'u');

/** The first character `escapeControls` would escape (newline and tab included), or undefined. */
export function controlCharacterIn(text: string): string | undefined {
  return FIRST_UNSAFE.exec(text)?.[0];
}

/** `U+001B`, `U+E0041`: how a message names a character (the first code point of `char`). */
export const codePoint = (char: string): string => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
