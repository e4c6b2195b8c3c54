/**
 * Everything the CLI writes goes through here. Text from a server, a storage or a file name may
 * hold terminal escape sequences (clipboard writes, window titles, screen clears, hidden text) or
 * bidirectional overrides; they are shown escaped (`\x1b`, `\u202e`), never sent raw. Credentials
 * are masked in every line on stderr.
 */
import { escapeControls } from '@skillmount/core';
import { redact } from '../redact.js';

/** One value inside a line (a name, a path, a URI, a table cell): newlines and tabs escaped too. */
export const field = (text: string): string => escapeControls(text);

/** A line (or lines) on stdout. */
export function say(text: string): void {
  process.stdout.write(`${escapeControls(text, { lines: true })}\n`);
}

/** A line (or lines) on stderr, with passwords masked. */
export function complain(text: string): void {
  process.stderr.write(`${escapeControls(redact(text), { lines: true })}\n`);
}

// JSON.stringify escapes C0 controls only; DEL, C1 and bidirectional controls are escaped the same way here.
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

/** `value` as indented JSON on stdout: the same value once parsed, with no raw control character. */
export function sayJson(value: unknown): void {
  const json = JSON.stringify(value, null, 2).replace(UNESCAPED_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  process.stdout.write(`${json}\n`);
}

/**
 * A file's bytes on stdout: exact when stdout is a pipe or a file; on a terminal, text has its
 * control characters escaped (newlines and tabs kept) and a binary file is not printed.
 */
export function sayContent(bytes: Uint8Array, text: string | undefined): void {
  if (process.stdout.isTTY !== true) {
    process.stdout.write(bytes);
    return;
  }
  if (text === undefined) {
    complain(`skillmount: not printed: ${bytes.byteLength} bytes of binary content; redirect stdout to a file to save them`);
    return;
  }
  process.stdout.write(escapeControls(text, { lines: true }));
}

/** `value` as one line of JSON on stdout (a log line), with no raw control character. */
export function sayJsonLine(value: unknown): void {
  const json = JSON.stringify(value).replace(UNESCAPED_BY_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  process.stdout.write(`${json}\n`);
}
