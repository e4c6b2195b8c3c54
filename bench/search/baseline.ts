/**
 * The relevance baseline: plain BM25 (k1 1.2, b 0.75) over one field, a skill's name and
 * description together, split at anything not a letter or digit and lower-cased; no stemming,
 * no prefixes, no typos. Here only, to compare with.
 */
import type { SkillEntry } from '@skillmount/core';

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export function plainBm25(entries: readonly SkillEntry[]): (query: string, limit: number) => SkillEntry[] {
  const docs = entries.map((entry) => {
    const tf = new Map<string, number>();
    const all = words(`${entry.frontmatter.name} ${entry.frontmatter.description}`);
    for (const w of all) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { entry, tf, length: all.length };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const average = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
  return (query, limit) => {
    const terms = [...new Set(words(query))];
    const scored: { entry: SkillEntry; score: number }[] = [];
    for (const d of docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const n = df.get(t)!;
        score += Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / average)));
      }
      if (score > 0) scored.push({ entry: d.entry, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.entry.uri < b.entry.uri ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.entry);
  };
}
