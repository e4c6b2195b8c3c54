import { isScalar, visit, type Document } from 'yaml';

export interface DuplicateKey {
  /** The key as written, for the message. */
  key: string;
  /** Offsets of the first and the repeated key in the YAML source. */
  first: number;
  repeated: number;
}

/**
 * The first mapping key that appears twice in one mapping, in one pass with a set per mapping (the
 * yaml package's own check compares every key with every earlier one). Keys are equal as YAML 1.2
 * core-schema values, as that check has them: `1` and `1.0` are the same key, `1` and `"1"` are not.
 */
export function findDuplicateKey(doc: Document.Parsed): DuplicateKey | undefined {
  let found: DuplicateKey | undefined;
  visit(doc, {
    Map(_key, map) {
      const seen = new Map<unknown, number>();
      for (const pair of map.items) {
        // A key that is not a scalar (a collection, an alias) equals only itself, as in the yaml package.
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
        const first = seen.get(key);
        if (first !== undefined) {
          found = { key: String(isScalar(pair.key) ? (pair.key.source ?? pair.key.value) : key), first, repeated: offset };
          return visit.BREAK;
        }
        seen.set(key, offset);
      }
      return undefined;
    },
  });
  return found;
}
