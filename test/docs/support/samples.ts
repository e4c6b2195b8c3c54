/**
 * The code samples of the documentation: every ```ts and ```js block of the site's pages and of
 * the READMEs, with where it is and what it is marked as.
 *
 * Conventions (CONTRIBUTING.md, "Code samples in the docs"):
 * - ```ts (or ```js) — a complete module: it must type-check as it is, against the built packages.
 * - ```ts run — also run with Node.js (through tsx) in a folder holding a copy of examples/skills
 *   as ./skills; it must exit with 0 by itself.
 * - `<!-- prelude: name, … -->` on the line before a block — a fragment: the named declarations of
 *   test/docs/support/preludes.ts are put before it (never shown), so it still type-checks.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(import.meta.dirname, '../../..');

export interface Sample {
  /** The markdown file, relative to the repository: `docs/guide/oauth.md`. */
  file: string;
  /** Line of the opening fence. */
  line: number;
  lang: 'ts' | 'js';
  run: boolean;
  preludes: string[];
  code: string;
}

function markdownIn(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.') || name === 'node_modules' || name === 'api') return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownIn(full);
    return name.endsWith('.md') ? [full] : [];
  });
}

/** The site's pages and every README of the repository's packages and root. */
export function documentationFiles(): string[] {
  const readmes = ['README.md', ...readdirSync(path.join(REPO, 'packages')).map((pkg) => `packages/${pkg}/README.md`)];
  return [...markdownIn(path.join(REPO, 'docs')).map((file) => path.relative(REPO, file)), ...readmes].sort();
}

const FENCE = /^(\s*)```(\S*)(.*)$/;
const PRELUDE = /^<!--\s*prelude:\s*([\w\s,-]+?)\s*-->$/;

/** The ts and js samples of one markdown file. */
export function samplesOf(file: string): Sample[] {
  const lines = readFileSync(path.join(REPO, file), 'utf8').split('\n');
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', info = '', rest = ''] = open;
    const close = lines.findIndex((l, j) => j > i && l.trimEnd() === `${indent}\`\`\``);
    if (close === -1) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    const lang = info === 'ts' || info === 'typescript' ? 'ts' : info === 'js' || info === 'javascript' ? 'js' : undefined;
    if (lang) {
      const previous = i > 0 ? PRELUDE.exec(lines[i - 1]!.trim()) : null;
      samples.push({
        file,
        line: i + 1,
        lang,
        run: rest.trim().split(/\s+/).includes('run'),
        preludes: previous ? previous[1]!.split(',').map((name) => name.trim()) : [],
        code: lines
          .slice(i + 1, close)
          .map((l) => l.slice(indent.length))
          .join('\n'),
      });
    }
    i = close;
  }
  return samples;
}
