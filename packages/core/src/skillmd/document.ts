import { Composer, LineCounter, type Document } from 'yaml';
import { findDuplicateKey } from './duplicates.js';
import { boundedTokens } from './tokens.js';

export type YamlDocumentResult = { ok: true; doc: Document.Parsed } | { ok: false; code: 'frontmatter' | 'limit'; error: string };

// YAML 1.2 core schema. Duplicate keys are found by findDuplicateKey: the yaml package's own check is quadratic.
const OPTIONS = { version: '1.2', schema: 'core', uniqueKeys: false, prettyErrors: false } as const;

/**
 * Parse one YAML document in stages, each bounded before the next: the token tree (linear) is
 * checked for depth and size, then the document is built, then duplicate keys are looked for.
 * Line numbers in messages are counted from `firstLine` (where `source` starts in its file).
 */
export function parseYamlDocument(source: string, firstLine = 1): YamlDocumentResult {
  const lines = new LineCounter();
  const lineOf = (offset: number) => lines.linePos(offset).line + firstLine - 1;
  const bounded = boundedTokens(source, lines, lineOf);
  if (!bounded.ok) return { ok: false, code: 'limit', error: bounded.error };
  const { tokens } = bounded;

  const [doc, another] = [...new Composer(OPTIONS).compose(tokens, true, source.length)] as [Document.Parsed, Document.Parsed?];
  const error = doc.errors[0];
  if (error) return { ok: false, code: 'frontmatter', error: `invalid YAML frontmatter at line ${lineOf(error.pos[0])}: ${error.message.split('\n')[0]}` };
  if (another) return { ok: false, code: 'frontmatter', error: `invalid YAML frontmatter at line ${lineOf(another.range[0])}: a second YAML document starts there; the frontmatter is one mapping` };

  const duplicate = findDuplicateKey(doc);
  if (duplicate) {
    const key = JSON.stringify(duplicate.key.length > 64 ? `${duplicate.key.slice(0, 64)}…` : duplicate.key);
    return {
      ok: false,
      code: 'frontmatter',
      error: `invalid YAML frontmatter at line ${lineOf(duplicate.repeated)}: duplicate key ${key}, first given at line ${lineOf(duplicate.first)}; keys of a mapping must be unique, keep one`,
    };
  }
  return { ok: true, doc };
}
