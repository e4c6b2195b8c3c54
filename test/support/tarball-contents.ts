// What an unpacked package tarball holds against what its package.json promises: every file the
// manifest names is there, and every other file is one those files reach (an import, a worker
// loaded by path, a source map), or README.md, LICENSE, package.json. Anything else (sources,
// tests, configs, leftovers of an older build) would ship for nothing.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

type Manifest = Record<string, unknown>;

/** Every file under `dir`, as paths relative to it with `/` separators. */
export function filesUnder(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const name of readdirSync(path.join(dir, prefix))) {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(path.join(dir, relative)).isDirectory()) found.push(...filesUnder(dir, relative));
    else found.push(relative);
  }
  return found;
}

/** Every string leaf under a manifest value (exports conditions, bin maps, typesVersions lists). */
function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [];
}

/** The files package.json names: main, module, types, bin, exports and typesVersions targets. */
export function manifestTargets(manifest: Manifest): { field: string; file: string }[] {
  const fields = ['main', 'module', 'types', 'typings', 'bin', 'exports', 'typesVersions'];
  return fields.flatMap((field) => leaves(manifest[field]).map((target) => ({ field, file: path.posix.normalize(target) })));
}

// A relative path in quotes (import, require, `new URL('./worker.js', import.meta.url)`), or a
// source map comment.
const RELATIVE = /(['"`])(\.{1,2}\/[^'"`\s]+)\1/g;
const SOURCE_MAP = /[#@] sourceMappingURL=(\S+)/g;

/** What a specifier written in `from` may name: declarations import `./x.js` for `./x.d.ts`. */
function candidates(from: string, specifier: string): string[] {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (!/\.d\.[cm]?ts$/.test(from)) return [base];
  return [base, base.replace(/\.js$/, '.d.ts'), base.replace(/\.cjs$/, '.d.cts'), base.replace(/\.mjs$/, '.d.mts'), `${base}.d.ts`];
}

/** The files reachable from the manifest's targets, following relative references in the code. */
function reachable(dir: string, files: Set<string>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.filter((file) => files.has(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file)) continue;
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const [, , specifier] of text.matchAll(RELATIVE)) queue.push(...candidates(file, specifier!).filter((f) => files.has(f)));
    for (const [, map] of text.matchAll(SOURCE_MAP)) queue.push(path.posix.join(path.posix.dirname(file), map!));
  }
  return seen;
}

/**
 * What is wrong with a shipped source map: a source named by an absolute path (the build
 * machine's folders), or a source whose text it does not carry and which does not ship (src/).
 */
function mapProblems(dir: string, file: string, files: Set<string>): string[] {
  const map = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { file?: string; sources?: string[]; sourcesContent?: (string | null)[] };
  const own = map.file !== undefined && path.isAbsolute(map.file) ? [`${file} names itself as ${map.file}, an absolute path of the machine that built it`] : [];
  return own.concat(
    ...(map.sources ?? []).map((source, i) => {
      if (path.isAbsolute(source)) return [`${file} names ${source}, an absolute path of the machine that built it`];
      const shipped = files.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), source)));
      if (typeof map.sourcesContent?.[i] === 'string' || shipped) return [];
      return [`${file} maps to ${source}, which does not ship, and does not carry its text (sourcesContent)`];
    }),
  );
}

/** Problems with an unpacked package (`dir` holds its package.json), one line each; none when it is right. */
export function contentProblems(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  const list = filesUnder(dir);
  const files = new Set(list);
  const problems: string[] = [];
  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!files.has(required)) problems.push(`${required} is missing: add it to the package folder (and to "files" if that lists what ships)`);
  }
  const targets = manifestTargets(manifest);
  for (const { field, file } of targets) {
    if (!files.has(file)) problems.push(`"${field}" names ${file}, which is not in the tarball: build it, or fix the path, or add it to "files"`);
  }
  const reached = reachable(dir, files, ['package.json', ...targets.map((t) => t.file)]);
  for (const file of list) {
    if (['package.json', 'README.md', 'LICENSE'].includes(file) || reached.has(file)) continue;
    problems.push(`${file} ships but nothing uses it: no manifest field names it and no shipped file refers to it (a leftover, a test or a source?)`);
  }
  for (const file of list.filter((f) => f.endsWith('.map'))) problems.push(...mapProblems(dir, file, files));
  return problems;
}
