/**
 * The search bench's catalog: the real published skills of a corpus folder (every SKILL.md under
 * it, each served as `<source>/<name>/SKILL.md`), mixed into seeded generated skills up to the
 * size asked for. Generated skills draw their words from the real descriptions and bodies, so they
 * compete for the same words as the real ones do.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFrontmatter } from '@skillmount/core';

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export interface RealSkill {
  path: string;
  name: string;
  text: string;
}

/** Every valid SKILL.md under `root` (a name the Agent Skills format allows, not seen before in its source). */
export function realSkills(root: string): RealSkill[] {
  const skills: RealSkill[] = [];
  const seen = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'SKILL.md') {
        const text = readFileSync(full, 'utf8');
        const parsed = parseFrontmatter(text);
        if (!parsed.ok) continue;
        const name = String(parsed.frontmatter.name ?? '');
        const source = path
          .relative(root, full)
          .split(path.sep)[0]!
          .replace(/[^a-z0-9-]/gi, '-')
          .toLowerCase();
        const where = `${source}/${name}/SKILL.md`;
        if (!NAME.test(name) || name.length > 64 || seen.has(where)) continue;
        seen.add(where);
        skills.push({ path: where, name, text });
      }
    }
  };
  walk(root);
  return skills;
}

/** mulberry32: the same sequence on every machine for a seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A storage tree of `size` skills: the real ones, then generated ones in `generated/group-NN/`. */
export function mixedTree(real: readonly RealSkill[], size: number, seed = 0x5eed): Record<string, string> {
  const next = random(seed);
  const words = real.flatMap((s) => s.text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []);
  const pick = (n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!).join(' ');
  const tree: Record<string, string> = {};
  for (const s of real) tree[s.path] = s.text;
  for (let i = 0; real.length + i < size; i++) {
    const name = `${pick(2)
      .replace(/[^a-z0-9 ]/g, '')
      .replace(/ +/g, '-')}-${i}`.replace(/^-+/, 'x-');
    const description = pick(12 + Math.floor(next() * 30));
    tree[`generated/group-${String(i % 50).padStart(2, '0')}/${name}/SKILL.md`] =
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n# ${name}\n\n${pick(150 + Math.floor(next() * 300))}\n`;
  }
  return tree;
}
