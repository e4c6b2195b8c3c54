import { isMap, visit, type Document } from 'yaml';
import { utf8Length } from '../bytes/text.js';
import { parseYamlDocument } from './document.js';
import {
  frontmatterSizeProblem,
  MAX_FRONTMATTER_ALIASES,
  MAX_FRONTMATTER_BYTES,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_NODES,
  MAX_SKILL_MD_BYTES,
  skillMdSizeProblem,
} from './limits.js';
import { plainFrontmatter } from './plain.js';
import { splitFrontmatter } from './split.js';

export type FrontmatterResult =
  | {
      ok: true;
      frontmatter: Record<string, unknown>;
      body: string;
      /** Valid YAML that some hosts' simpler parsers refuse (the SDK v2's does): worth a warning, not a refusal. */
      portability: string[];
    }
  | {
      ok: false;
      /** `limit`: over a size, depth or node limit (limits.ts); `frontmatter`: missing, invalid (alias bombs too) or not JSON. */
      code: 'frontmatter' | 'limit';
      error: string;
    };

/**
 * Parse SKILL.md frontmatter with YAML 1.2 core-schema typing: `yes`, `no` and `on` stay strings,
 * dates stay strings, and duplicate keys are an error. The result is plain JSON data. Sizes,
 * nesting, node and alias counts are bounded (limits.ts) before each costly step.
 *
 * @example
 * ```ts
 * import { parseFrontmatter } from '@skillmount/core';
 *
 * const result = parseFrontmatter('---\nname: refunds\ndescription: Handle refunds.\n---\nSteps…\n');
 * if (result.ok) console.log(result.frontmatter.name, result.body);
 * else console.error(result.code, result.error);
 * ```
 * @throws Nothing: invalid, oversized or missing front matter comes back as `{ ok: false, code, error }`.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  // A UTF-16 unit takes at most 3 bytes: text that short cannot be over, and is not counted.
  const tooLarge = text.length * 3 > MAX_SKILL_MD_BYTES ? skillMdSizeProblem(utf8Length(text)) : undefined;
  if (tooLarge) return { ok: false, code: 'limit', error: tooLarge };
  const split = splitFrontmatter(text);
  if (!split) return { ok: false, code: 'frontmatter', error: 'SKILL.md must begin with YAML frontmatter between "---" lines' };
  const tooLong = split.yaml.length * 3 > MAX_FRONTMATTER_BYTES ? frontmatterSizeProblem(utf8Length(split.yaml)) : undefined;
  if (tooLong) return { ok: false, code: 'limit', error: tooLong };
  // Two nodes a field (its key and its value): past the node limit the full parser says so.
  const plain = plainFrontmatter(split.yaml, MAX_FRONTMATTER_NODES / 2);
  if (plain) return { ok: true, frontmatter: plain, body: split.body, portability: [] };
  // The YAML starts on line 2 of SKILL.md, after the opening fence.
  const parsed = parseYamlDocument(split.yaml, 2);
  if (!parsed.ok) return parsed;
  const { doc } = parsed;
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_FRONTMATTER_ALIASES, mapAsMap: true });
  } catch (error) {
    return { ok: false, code: 'frontmatter', error: `invalid YAML frontmatter: ${(error as Error).message}` };
  }
  if (!(value instanceof Map)) {
    return { ok: false, code: 'frontmatter', error: 'YAML frontmatter must be a mapping of fields (name: …, description: …)' };
  }
  const json = toJson(value);
  if (!json.ok) return { ok: false, code: json.limit ? 'limit' : 'frontmatter', error: `frontmatter field ${json.path} cannot be sent as JSON: ${json.error}` };
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

type JsonResult = { ok: true; value: unknown } | { ok: false; path: string; error: string; limit?: true };

// The entry carries the frontmatter "as JSON": refuse what JSON cannot carry rather than let it change shape on the wire.
function toJson(value: unknown, path = '$', depth = 0): JsonResult {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, path, error: `${value} is not a JSON number` };
  }
  // Aliases can stack collections deeper than the source text nests them: bound the result too.
  if (depth >= MAX_FRONTMATTER_DEPTH)
    return { ok: false, path, error: `it nests more than ${MAX_FRONTMATTER_DEPTH} levels deep once aliases are expanded (the limit)`, limit: true };
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = toJson(value[i], `${path}[${i}]`, depth + 1);
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
      if (Object.hasOwn(out, key))
        return { ok: false, path, error: `the key "${key}" is given twice (two YAML scalars with the same text, such as 1 and "1")` };
      const converted = toJson(item, `${path}.${key}`, depth + 1);
      if (!converted.ok) return converted;
      Object.defineProperty(out, key, { value: converted.value, enumerable: true, writable: true, configurable: true });
    }
    return { ok: true, value: out };
  }
  return { ok: false, path, error: `unsupported YAML value (${Object.prototype.toString.call(value)})` };
}
