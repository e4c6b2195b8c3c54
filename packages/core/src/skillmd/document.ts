import { Composer, isMap, isScalar, LineCounter, type Document, type Pair } from 'yaml';
import { findDuplicateKey } from './duplicates.js';
import { boundedTokens } from './tokens.js';
import { escapeControls } from '../text/escape.js';

export type YamlDocumentResult = { ok: true; doc: Document.Parsed } | { ok: false; code: 'frontmatter' | 'limit'; error: string };

// YAML 1.2 core schema. Duplicate keys are found by findDuplicateKey: the yaml package's own check is quadratic.
const OPTIONS = { version: '1.2', schema: 'core', uniqueKeys: false, prettyErrors: false } as const;

/**
 * Parse one YAML document in stages, each bounded before the next: the token tree (linear) is
 * checked for depth and size, then the document is built, then duplicate keys are looked for.
 * Line numbers in messages are counted from `firstLine` (where `source` starts in SKILL.md), so
 * they point into the file a user edits, not into the frontmatter block.
 */
export function parseYamlDocument(source: string, firstLine = 1): YamlDocumentResult {
  const lines = new LineCounter();
  const lineOf = (offset: number) => lines.linePos(offset).line + firstLine - 1;
  const at = (offset: number) => `SKILL.md line ${lineOf(offset)}, column ${lines.linePos(offset).col}`;
  const bounded = boundedTokens(source, lines, lineOf);
  if (!bounded.ok) return { ok: false, code: 'limit', error: bounded.error };
  const { tokens } = bounded;

  const [doc, another] = [...new Composer(OPTIONS).compose(tokens, true, source.length)] as [Document.Parsed, Document.Parsed?];
  const error = doc.errors[0];
  if (error) {
    const key = keyPathAt(doc, error.pos[0]);
    const where = key ? ` (in ${show(key)})` : '';
    const hint = error.code === 'BLOCK_AS_IMPLICIT_KEY' && key !== undefined ? quoteHint(key, source, error.pos[0]) : '';
    return { ok: false, code: 'frontmatter', error: `invalid YAML frontmatter at ${at(error.pos[0])}${where}: ${error.message.split('\n')[0]}${hint}` };
  }
  if (another) {
    return {
      ok: false,
      code: 'frontmatter',
      error: `invalid YAML frontmatter at SKILL.md line ${lineOf(another.range[0])}: a second YAML document starts there; the frontmatter is one mapping`,
    };
  }

  const duplicate = findDuplicateKey(doc);
  if (duplicate) {
    const [first, repeated] = [lines.linePos(duplicate.first), lines.linePos(duplicate.repeated)];
    // Two keys on one line (a flow mapping) are told apart by column.
    const position =
      first.line === repeated.line
        ? `SKILL.md line ${lineOf(duplicate.repeated)}, column ${repeated.col} (first given at column ${first.col})`
        : `SKILL.md line ${lineOf(duplicate.repeated)} (first given at line ${lineOf(duplicate.first)})`;
    return {
      ok: false,
      code: 'frontmatter',
      error: `invalid YAML frontmatter: duplicate key ${show(duplicate.key)} at ${position}; keys of a mapping must be unique, keep one`,
    };
  }
  return { ok: true, doc };
}

/** Longest value the quoting hint spells out in full. */
const MAX_HINT_VALUE = 100;

/**
 * `description: Use when: …` reads to YAML as a mapping inside a value ("Nested mappings are not
 * allowed in compact mappings"): the fix is quoting the value, shown with the line's own text.
 */
function quoteHint(keyPath: string, source: string, offset: number): string {
  const key = keyPath.slice(keyPath.lastIndexOf('.') + 1);
  const end = source.indexOf('\n', offset);
  const value = source.slice(offset, end === -1 ? undefined : end).trimEnd();
  // A plain value may go on over more indented lines: the quotes go around all of it.
  const continued = end !== -1 && /^[ \t]+\S/.test(source.slice(end + 1));
  const shown = value === '' || value.length > MAX_HINT_VALUE ? '"…"' : JSON.stringify(continued ? `${value} …` : value);
  const example = `${key}: ${shown}`;
  return `. A value holding ": " must be quoted: ${escapeControls(example)}`;
}

/** A key as a message shows it: quoted, control characters escaped, cut short when long. */
const show = (key: string) => JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);

/**
 * The dotted path of mapping keys (`metadata.owner`) whose entry holds `offset`, for a message
 * that names the field where the YAML went wrong; undefined outside any key's entry.
 */
function keyPathAt(doc: Document.Parsed, offset: number): string | undefined {
  const path: string[] = [];
  let node: unknown = doc.contents;
  // Bounded by the nesting limit the tokens were checked against.
  while (isMap(node)) {
    let found: Pair | undefined;
    for (const pair of node.items) {
      const start = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
      if (start !== undefined && start <= offset) found = pair;
    }
    if (!found || !isScalar(found.key)) break;
    const keyEnd = found.key.range?.[1] ?? 0;
    const value = found.value as { range?: [number, number, number] } | null;
    // Past the entry (on a later line) or in the key itself (a malformed key): the field is the mapping that holds it.
    if (offset >= (value?.range?.[1] ?? keyEnd) || offset < keyEnd) break;
    path.push(String(found.key.source ?? found.key.value));
    if (!value?.range || value.range[0] > offset) break;
    node = value;
  }
  return path.length > 0 ? path.join('.') : undefined;
}
