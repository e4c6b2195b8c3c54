/**
 * Relative links of markdown files as GitHub resolves them: the file a link names, and the
 * anchors GitHub gives a file's headings (lower case, punctuation dropped, spaces to hyphens,
 * `-1`, `-2` … for repeated headings).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function githubSlug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Lines outside fenced code blocks, with their line numbers. */
function prose(markdown: string): Array<[number, string]> {
  let fenced = false;
  const lines: Array<[number, string]> = [];
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push([i + 1, line]);
  });
  return lines;
}

export function githubAnchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, line] of prose(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative links of `file` (a path inside `root`) that name no file, or no heading of it. */
export function brokenRelativeLinks(root: string, file: string): string[] {
  const broken: string[] = [];
  for (const [number, line] of prose(readFileSync(path.join(root, file), 'utf8'))) {
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const [target = '', anchor] = href.split('#');
      let resolved = target === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(target));
      if (!existsSync(resolved)) {
        broken.push(`${file}:${number}: ${href} (no such file)`);
        continue;
      }
      if (statSync(resolved).isDirectory()) {
        if (!anchor) continue;
        resolved = path.join(resolved, 'README.md');
      }
      if (anchor && resolved.endsWith('.md') && !githubAnchors(resolved).has(anchor)) {
        broken.push(`${file}:${number}: ${href} (no heading with that anchor)`);
      }
    }
  }
  return broken;
}
