/**
 * The common frontmatter — one `key: value` line per field, every value a plain string — read
 * without building a YAML document. It only recognises text whose meaning under YAML 1.2's core
 * schema is beyond doubt, and answers undefined for anything else (quotes, comments, blank or
 * indented lines, lists, keywords such as `true` or `null`, numbers, a `: ` or ` #` inside a
 * value, a repeated key, characters outside the plain ranges), which the yaml package then parses.
 * A catalog parses one frontmatter per skill; the full parser costs several times this for what
 * most skills hold. test/core/plain-frontmatter.test.ts checks every answer against the yaml package.
 */

// A key and a value each start with a letter: no indicator (`-?:,[]{}#&*!|>'"%@` and backquote), no number, no `.inf`.
const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
// After the first letter: printable ASCII and the non-ASCII ranges YAML prints, less what any version reads as a
// line break (U+2028, U+2029) and the byte order mark; no tab, no surrogates.
const VALUE = /^[A-Za-z][\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
// The core schema reads these as booleans and null, in a key as in a value.
const KEYWORDS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);

/**
 * The fields of `yaml` (the text between the fences, each line ending in "\n") when every line is
 * `key: value` as above, in order; undefined when any line is not.
 */
export function plainFrontmatter(yaml: string, maxFields: number): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  let start = 0;
  while (start < yaml.length) {
    const end = yaml.indexOf('\n', start);
    if (end < 0) return undefined;
    const colon = yaml.indexOf(': ', start);
    if (colon < 0 || colon > end) return undefined;
    const key = yaml.slice(start, colon);
    // YAML drops the spaces and tabs that end a plain value (trimmed in a loop: a regular expression would be quadratic).
    let stop = end;
    while (stop > colon + 2 && (yaml[stop - 1] === ' ' || yaml[stop - 1] === '\t')) stop--;
    const value = yaml.slice(colon + 2, stop);
    if (!KEY.test(key) || KEYWORDS.has(key) || seen.has(key) || !plainValue(value)) return undefined;
    if (seen.size >= maxFields) return undefined;
    seen.add(key);
    Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
    start = end + 1;
  }
  return seen.size > 0 ? fields : undefined;
}

/** A value YAML reads as exactly its own text: no `: `, ` #` or final `:`. */
function plainValue(value: string): boolean {
  if (!VALUE.test(value) || KEYWORDS.has(value) || value.endsWith(':')) return false;
  return !value.includes(': ') && !value.includes(' #');
}
