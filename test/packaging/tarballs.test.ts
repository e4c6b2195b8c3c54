// Every package as the npm registry, bundlers and TypeScript get it: packed into a tarball (as
// scripts/pack-all.mjs does for a release, `workspace:` ranges rewritten; once per build:
// test/support/packed-tarballs.ts), then judged on that tarball by publint (package.json against
// the files that ship), by Are the Types Wrong (types for every entry point under node10, node16
// from CommonJS and from ESM, and bundler resolution), and by what the tarball holds: every file
// package.json names, nothing nothing uses.
// Both tools read the local tarball and need no network: `fetch` is refused here and in attw.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { packedTarballs } from '../support/packed-tarballs.ts';
import { contentProblems } from '../support/tarball-contents.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const noFetch = pathToFileURL(path.join(root, 'test/support/no-fetch.mjs')).href;
await import(noFetch);

const packages = readdirSync(path.join(root, 'packages')).map((dir) => ({
  dir,
  name: (JSON.parse(readFileSync(path.join(root, 'packages', dir, 'package.json'), 'utf8')) as { name: string }).name,
}));

const work = mkdtempSync(path.join(tmpdir(), 'skillmount-tarballs-'));
after(() => rmSync(work, { recursive: true, force: true }));
/** Tarball path per package name, once pack-all has run. */
const tarballs = new Map<string, string>();

before(async () => {
  for (const file of await packedTarballs()) {
    const manifest = JSON.parse((await run('tar', ['-xzOf', file, 'package/package.json'])).stdout) as { name: string };
    tarballs.set(manifest.name, file);
  }
});

/**
 * attw's verdict on every tarball, as its ASCII report. Profile `strict` (attw's default): every
 * resolution mode counts, as packages that ship both ESM and CommonJS need, node10 included
 * (TypeScript's `moduleResolution: node`, still common). The CLI package has a `bin` too; its
 * library entry (`main`) is held to the same profile. The CLI's steps run for all tarballs in one
 * process (test/support/attw-all.mjs): attw loads TypeScript, over a second of CPU, once.
 */
async function typesVerdicts(files: string[]): Promise<Map<string, { ok: boolean; report: string }>> {
  const args = ['--import', noFetch, path.join(root, 'test/support/attw-all.mjs'), ...files];
  try {
    const { stdout } = await run(process.execPath, args, { cwd: root, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
    return new Map(Object.entries(JSON.parse(stdout) as Record<string, { ok: boolean; report: string }>));
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`attw failed on ${files.join(', ')}:\n${failed.stdout ?? ''}${failed.stderr ?? ''}\n${failed.message}`);
  }
}

/**
 * publint's errors and warnings on a tarball, one line each (`strict` makes warnings errors). Its
 * suggestions are returned apart: they are advice, shown but not failed on. No rule is turned off.
 */
async function lintVerdict(tarball: string): Promise<{ problems: string[]; suggestions: string[] }> {
  const bytes = readFileSync(tarball);
  const result = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, strict: true });
  const line = (m: (typeof result.messages)[number]) => `${m.type} ${m.code}: ${formatMessage(m, result.pkg) ?? ''}`;
  return {
    problems: result.messages.filter((m) => m.type !== 'suggestion').map(line),
    suggestions: result.messages.filter((m) => m.type === 'suggestion').map(line),
  };
}

let verdicts: Promise<Map<string, { ok: boolean; report: string }>> | undefined;
const verdictOf = (name: string) => {
  const tarball = tarballs.get(name);
  if (tarball === undefined) throw new Error(`pack-all made no tarball for ${name}; it printed: ${[...tarballs.values()].join(', ')}`);
  verdicts ??= typesVerdicts([...tarballs.values()]);
  return {
    tarball,
    types: verdicts.then((all) => all.get(tarball) ?? { ok: false, report: `attw gave no verdict on ${tarball}` }),
  };
};

for (const { dir, name } of packages) {
  test(`${name} (packages/${dir}): its tarball passes publint and attw, and holds what package.json names and nothing unused`, async (t) => {
    const { tarball, types } = verdictOf(name);
    const lint = await lintVerdict(tarball);
    for (const suggestion of lint.suggestions) t.diagnostic(`publint suggests: ${suggestion}`);
    const unpacked = path.join(work, 'unpacked', dir);
    mkdirSync(unpacked, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', unpacked]);
    const contents = contentProblems(path.join(unpacked, 'package'));
    const verdict = await types;

    const failures = [
      ...(lint.problems.length ? [`publint (${path.basename(tarball)}):\n  ${lint.problems.join('\n  ')}`] : []),
      ...(verdict.ok ? [] : [`attw --profile strict ${path.basename(tarball)}:\n${verdict.report}`]),
      ...(contents.length ? [`tarball contents (${path.basename(tarball)}):\n  ${contents.join('\n  ')}`] : []),
    ];
    assert.equal(failures.length, 0, failures.join('\n\n'));
    assert.match(verdict.report, /No problems found/, `attw found no problem but printed no all-clear:\n${verdict.report}`);
  });
}
