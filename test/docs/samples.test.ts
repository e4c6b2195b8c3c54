/**
 * Every ```ts and ```js sample of the documentation site and of the READMEs type-checks against
 * the built packages (as a user's code sees them: by package name, with the tests' strict compiler
 * settings), and the samples marked `run` run to completion. Conventions: test/docs/support/samples.ts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import ts from 'typescript';
import { PRELUDES } from './support/preludes.js';
import { REPO, type Sample, documentationFiles, samplesOf } from './support/samples.js';

const samples = documentationFiles().flatMap(samplesOf);
// Inside the repository (.tmp is ignored), so the samples' imports resolve to the workspace's packages.
const dir = path.join(REPO, '.tmp', `doc-samples-${process.pid}`);
after(() => rmSync(dir, { recursive: true, force: true }));

interface Written {
  sample: Sample;
  path: string;
  preludeLines: number;
}

function where(sample: Sample): string {
  return `${sample.file}:${sample.line}`;
}

function write(sample: Sample, folder: string): Written {
  const unknown = sample.preludes.filter((name) => !(name in PRELUDES));
  if (unknown.length > 0) throw new Error(`${where(sample)}: unknown prelude ${unknown.join(', ')}; the names are those of test/docs/support/preludes.ts`);
  const prelude = sample.preludes.map((name) => PRELUDES[name]!).join('\n');
  const preludeLines = prelude === '' ? 0 : prelude.split('\n').length;
  const name = `${sample.file.replace(/[^\w]+/g, '-')}-${sample.line}.${sample.lang === 'ts' ? 'ts' : 'mjs'}`;
  const file = path.join(folder, name);
  mkdirSync(folder, { recursive: true });
  // `export {}` keeps a sample without imports a module, so top-level await and names stay its own.
  writeFileSync(file, `${prelude}${prelude ? '\n' : ''}${sample.code}\n${sample.lang === 'ts' ? 'export {};\n' : ''}`);
  return { sample, path: file, preludeLines };
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(REPO, 'tsconfig.check.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
  return { ...parsed.options, noEmit: true, allowImportingTsExtensions: false };
}

// JS samples carry no types, so only what a JS user would also get wrong is reported: an import
// that does not resolve or names no export, a name that does not exist, a call with the wrong
// argument count, and an option (object literal property) that the declared type does not have
// (alone, or as the reason no overload matches).
const JS_CODES = new Set([2304, 2305, 2307, 2552, 2554, 2353, 2561, 2614, 2724, 2769]);

/** Every sample compiled in one program (ts strictly, js through checkJs): the problems of each language. */
function typeErrors(): { ts: string[]; js: string[] } {
  const written = samples.map((sample) => write(sample, path.join(dir, 'check')));
  const byPath = new Map(written.map((w) => [path.resolve(w.path), w]));
  const program = ts.createProgram(
    written.map((w) => w.path),
    { ...compilerOptions(), allowJs: true, checkJs: true },
  );
  const found = { ts: [] as string[], js: [] as string[] };
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const own = d.file && byPath.get(path.resolve(d.file.fileName));
    if (!own || d.start === undefined) {
      found.ts.push(`${d.file?.fileName ?? '(no file)'}: TS${d.code} ${message}`);
      continue;
    }
    if (own.sample.lang === 'js' && !JS_CODES.has(d.code)) continue;
    const line = d.file!.getLineAndCharacterOfPosition(d.start).line - own.preludeLines;
    const at = line < 0 ? `${where(own.sample)} (in its prelude)` : `${own.sample.file}:${own.sample.line + 1 + line}`;
    found[own.sample.lang].push(`${at}: TS${d.code} ${message}`);
  }
  return found;
}

let problems: { ts: string[]; js: string[] };
before(
  () => {
    problems = typeErrors();
  },
  { timeout: 240_000 },
);

test('the documentation has samples to check', () => {
  assert.ok(samples.length >= 40, `only ${samples.length} samples found`);
  assert.ok(
    samples.some((s) => s.run),
    'no sample is marked run',
  );
});

test('every ts sample type-checks against the built packages, strictly', () => {
  assert.equal(problems.ts.length, 0, `${problems.ts.length} type errors in the documentation's ts samples:\n${problems.ts.join('\n')}`);
});

test('every js sample imports, calls and configures what the packages declare', () => {
  assert.equal(problems.js.length, 0, `${problems.js.length} errors in the documentation's js samples:\n${problems.js.join('\n')}`);
});

for (const sample of samples.filter((s) => s.run)) {
  test(`${where(sample)} runs to completion`, { timeout: 120_000 }, () => {
    const folder = path.join(dir, `run-${sample.line}-${sample.file.replace(/[^\w]+/g, '-')}`);
    cpSync(path.join(REPO, 'examples/skills'), path.join(folder, 'skills'), { recursive: true });
    const { path: file } = write(sample, folder);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: folder, encoding: 'utf8', timeout: 100_000 });
    assert.equal(result.status, 0, `${where(sample)} exited with ${result.status} (signal ${result.signal}):\n${result.stdout}\n${result.stderr}`);
  });
}
