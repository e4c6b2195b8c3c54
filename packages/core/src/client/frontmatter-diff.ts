const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const show = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value));

/**
 * Field-by-field differences between an entry's frontmatter and the one parsed from SKILL.md,
 * one line per differing field (`metadata.owner: the entry has "a", SKILL.md has "b"`). Objects
 * compare in any key order, arrays in order, scalars strictly (no type coercion).
 */
export function frontmatterDifferences(entry: unknown, parsed: unknown, path = ''): string[] {
  if (Array.isArray(entry) && Array.isArray(parsed)) {
    if (entry.length !== parsed.length) return [`${path || '(frontmatter)'}: the entry has ${entry.length} items, SKILL.md has ${parsed.length}`];
    return entry.flatMap((item, i) => frontmatterDifferences(item, parsed[i], `${path}[${i}]`));
  }
  if (isPlainObject(entry) && isPlainObject(parsed)) {
    const keys = [...new Set([...Object.keys(entry), ...Object.keys(parsed)])].sort();
    return keys.flatMap((key) => {
      const has = (o: Record<string, unknown>) => Object.hasOwn(o, key);
      return frontmatterDifferences(has(entry) ? entry[key] : undefined, has(parsed) ? parsed[key] : undefined, path ? `${path}.${key}` : key);
    });
  }
  return entry === parsed ? [] : [`${path || '(frontmatter)'}: the entry has ${show(entry)}, SKILL.md has ${show(parsed)}`];
}
