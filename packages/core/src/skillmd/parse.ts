import { isMap, parseDocument, visit, type Document } from 'yaml';
import { splitFrontmatter } from './split.js';

export type FrontmatterResult =
  | {
      ok: true;
      frontmatter: Record<string, unknown>;
      body: string;
      /** Valid YAML that some hosts' simpler parsers refuse (the SDK v2's does): worth a warning, not a refusal. */
      portability: string[];
    }
  | { ok: false; error: string };

/**
 * Parse SKILL.md frontmatter with YAML 1.2 core-schema typing: `yes`, `no` and `on` stay strings,
 * dates stay strings, and duplicate keys are an error. The result is plain JSON data.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const split = splitFrontmatter(text);
  if (!split) return { ok: false, error: 'SKILL.md must begin with YAML frontmatter between "---" lines' };
  const doc = parseDocument(split.yaml, { version: '1.2', schema: 'core', uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    return { ok: false, error: `invalid YAML frontmatter: ${first.message.split('\n')[0]}` };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100, mapAsMap: true });
  } catch (error) {
    return { ok: false, error: `invalid YAML frontmatter: ${(error as Error).message}` };
  }
  if (!(value instanceof Map)) {
    return { ok: false, error: 'YAML frontmatter must be a mapping of fields (name: …, description: …)' };
  }
  const json = toJson(value);
  if (!json.ok) return { ok: false, error: `frontmatter field ${json.path} cannot be sent as JSON: ${json.error}` };
  return { ok: true, frontmatter: json.value as Record<string, unknown>, body: split.body, portability: portabilityNotes(doc) };
}

function portabilityNotes(doc: Document): string[] {
  const notes = new Set<string>();
  visit(doc, {
    Alias: () => void notes.add('aliases (*name)'),
    Node: (_key, node) => {
      if (node.anchor) notes.add('anchors (&name)');
      if (node.tag) notes.add('explicit tags (!!type)');
    },
  });
  if (isMap(doc.contents) && doc.contents.flow) notes.add('a flow-style mapping ({ … }) as the whole frontmatter');
  return [...notes];
}

type JsonResult = { ok: true; value: unknown } | { ok: false; path: string; error: string };

// The entry carries the frontmatter "as JSON": refuse what JSON cannot carry rather than let it change shape on the wire.
function toJson(value: unknown, path = '$'): JsonResult {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, path, error: `${value} is not a JSON number` };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = toJson(value[i], `${path}[${i}]`);
      if (!item.ok) return item;
      out.push(item.value);
    }
    return { ok: true, value: out };
  }
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [rawKey, item] of value) {
      // Scalar keys (`1:`, `true:`) read as their text, as JSON.parse would; a collection as a key has no JSON form.
      if (rawKey !== null && typeof rawKey === 'object') return { ok: false, path, error: 'a mapping key must be a plain scalar, not a collection' };
      const key = rawKey === null ? '' : String(rawKey);
      if (Object.hasOwn(out, key)) return { ok: false, path, error: `the key "${key}" is given twice (two YAML scalars with the same text, such as 1 and "1")` };
      const converted = toJson(item, `${path}.${key}`);
      if (!converted.ok) return converted;
      Object.defineProperty(out, key, { value: converted.value, enumerable: true, writable: true, configurable: true });
    }
    return { ok: true, value: out };
  }
  return { ok: false, path, error: `unsupported YAML value (${Object.prototype.toString.call(value)})` };
}
