/** What a tenant's listeners saw, so a tenant loaded again can tell them only when it changed. */
import { createHash } from 'node:crypto';
import type { SkillEntry, SkillSource } from '../types.js';

/** The entries of a source that exposes them (a `SkillCatalog`), else `undefined`. */
export function entriesOf(source: SkillSource | undefined): readonly SkillEntry[] | undefined {
  const entries = (source as { entries?: unknown } | undefined)?.entries;
  return Array.isArray(entries) ? (entries as readonly SkillEntry[]) : undefined;
}

/** What a tenant's listeners saw, in a few bytes, for sources that expose their entries. */
export function fingerprint(source: SkillSource): string | undefined {
  const entries = entriesOf(source);
  return entries ? createHash('sha256').update(JSON.stringify(entries)).digest('hex') : undefined;
}
