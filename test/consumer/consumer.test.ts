/**
 * The packages the way a user gets them: packed into tarballs (scripts/pack-all.mjs, once per
 * build: test/support/packed-tarballs.ts), installed with plain npm into an app outside the
 * workspace that has its own @modelcontextprotocol/sdk, fastify, express and zod, type-checked in
 * strict mode as ESM and as CommonJS, run, and its skills checked with the SDK's client and the
 * skills client, all from the installed copies.
 * The type check is tsc's, with the app's TypeScript, minus checking other packages' declaration
 * files (fixtures/typecheck.mjs): ours are checked in full.
 * The first run fills npm's cache (about a minute); later runs install from it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { packedTarballs } from '../support/packed-tarballs.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const SKILLS = path.join(ROOT, 'examples/skills');
const run = promisify(execFile);

/** The versions the workspace itself tests with, so npm finds them in its cache. */
const workspaceVersion = (name: string): string => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
const ourVersion: string = JSON.parse(readFileSync(path.join(ROOT, 'packages/core/package.json'), 'utf8')).version;

// Installs and compiles outside the workspace: without pnpm's npm_* settings, with the same Node.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));
const env = { ...cleanEnv, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };

let work: string;
let app: string;

/** Run a command in the scratch app; on failure the error carries its output. */
async function sh(file: string, args: string[], timeout: number, cwd = app, environment: NodeJS.ProcessEnv = env): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env: environment, timeout, maxBuffer: 32 << 20 });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message}`);
  }
}

/** Skill folder name → how many files it holds, from the example tree on disk. */
function exampleSkills(): Map<string, number> {
  const skills = new Map<string, number>();
  const count = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((n, d) => n + (d.isDirectory() ? count(path.join(dir, d.name)) : 1), 0);
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const full = path.join(dir, d.name);
      if (readdirSync(full).includes('SKILL.md')) skills.set(d.name, count(full));
      else walk(full);
    }
  };
  walk(SKILLS);
  return skills;
}

before(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skillmount-consumer-'));
  app = path.join(work, 'app');
  const tarballs = await packedTarballs();

  mkdirSync(app);
  cpSync(SKILLS, path.join(app, 'skills'), { recursive: true });
  const dependencies: Record<string, string> = {};
  for (const tarball of tarballs) {
    const manifest = JSON.parse(await sh('tar', ['-xzOf', tarball, 'package/package.json'], 30_000, work));
    dependencies[manifest.name] = `file:${tarball}`;
  }
  for (const name of ['@modelcontextprotocol/sdk', 'fastify', 'express', 'zod']) dependencies[name] = workspaceVersion(name);
  const devDependencies = Object.fromEntries(['typescript', '@types/node', '@types/express'].map((name) => [name, workspaceVersion(name)]));
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer-app', private: true, dependencies, devDependencies }, null, 2));

  // The same source twice: ESM or CommonJS by its folder's package.json "type", each its own
  // program, as in an app of either kind (our declarations are checked too: no skipLibCheck).
  const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', esModuleInterop: true, types: ['node'] };
  for (const [folder, type] of [
    ['esm', 'module'],
    ['cjs', 'commonjs'],
  ] as const) {
    mkdirSync(path.join(app, folder));
    cpSync(path.join(FIXTURES, 'app.ts'), path.join(app, folder, 'app.ts'));
    writeFileSync(path.join(app, folder, 'package.json'), JSON.stringify({ type }));
    writeFileSync(path.join(app, folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
  }
  await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], 480_000);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the app is outside the workspace and our packages are real copies, not links into it', () => {
  assert.ok(path.relative(ROOT, realpathSync(app)).startsWith('..'), `${app} is inside ${ROOT}`);
  for (const name of readdirSync(path.join(app, 'node_modules/@skillmount'))) {
    const dir = path.join(app, 'node_modules/@skillmount', name);
    assert.ok(!lstatSync(dir).isSymbolicLink(), `${dir} is a link`);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version, ourVersion);
  }
});

test("one @modelcontextprotocol/sdk in the app, the app's own, and @skillmount/core resolves it", () => {
  const copies: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (!d.isDirectory()) continue;
      const full = path.join(dir, d.name);
      if (full.endsWith(path.join('@modelcontextprotocol', 'sdk'))) copies.push(full);
      else walk(full);
    }
  };
  walk(path.join(app, 'node_modules'));
  assert.deepEqual(copies, [path.join(app, 'node_modules/@modelcontextprotocol/sdk')]);
  const fromCore = createRequire(path.join(app, 'node_modules/@skillmount/core/package.json'));
  const resolved = fromCore.resolve('@modelcontextprotocol/sdk/server/mcp.js');
  assert.ok(resolved.startsWith(copies[0]! + path.sep), `@skillmount/core loads the SDK from ${resolved}`);
});

test('the app type-checks in strict mode as ESM and as CommonJS, with the declarations of ours it imports, and compiles', async () => {
  // tsc's check and emit, without checking other packages' declaration files (fixtures/typecheck.mjs).
  const checked = JSON.parse(await sh(process.execPath, [path.join(FIXTURES, 'typecheck.mjs'), 'esm', 'cjs'], 600_000)) as Record<string, string[]>;
  const imported = [...new Set([...readFileSync(path.join(FIXTURES, 'app.ts'), 'utf8').matchAll(/from '(@skillmount\/[^/']+)/g)].map((m) => m[1]!))];
  assert.ok(imported.length >= 4, `the app imports ${imported.join(', ')}`);
  for (const [folder, extension] of [
    ['esm', '.d.ts'],
    ['cjs', '.d.cts'],
  ] as const) {
    assert.ok(checked[folder]?.includes(path.join(folder, 'app.ts')), `${folder}/app.ts was not checked: ${checked[folder]}`);
    for (const name of imported) {
      const entry = path.join('node_modules', name, 'dist', `index${extension}`);
      assert.ok(checked[folder]!.includes(entry), `${folder}: ${entry} was not checked: ${checked[folder]}`);
    }
  }
  assert.match(readFileSync(path.join(app, 'esm/app.js'), 'utf8'), /^import .* from '@skillmount\/fastify';$/m);
  assert.match(readFileSync(path.join(app, 'cjs/app.js'), 'utf8'), /require\("@skillmount\/fastify"\)/);
});

for (const folder of ['esm', 'cjs']) {
  test(`${folder}: the app serves its tool and verified skills through Fastify and Express`, async () => {
    const built = path.join(app, folder, 'app.js');
    assert.ok(existsSync(built), `${built} was not compiled`);
    const report = JSON.parse((await sh(process.execPath, [built, 'skills'], 120_000)).trim().split('\n').at(-1)!);
    assert.equal(report.version, ourVersion);
    assert.deepEqual(report.kit, { plain: true, sameError: true }, "the storage kit loads, and its StorageError is the root's");
    assert.equal(report.optionMistake, 'invalid-value maxSessions', 'an OptionError, a RangeError, from the installed packages');
    assert.deepEqual(report.localhostNames, ['localhost', '127.0.0.1', '[::1]'], '@skillmount/core/adapter resolves');
    const expected = [...exampleSkills()].sort(([a], [b]) => a.localeCompare(b));
    for (const adapter of ['fastify', 'express']) {
      const { sum, skills } = report[adapter] as { sum: string; skills: { name: string; files: number; verified: boolean }[] };
      assert.equal(sum, '5', `${adapter}: the app's own tool`);
      const seen = skills.map((s) => [s.name, s.files] as [string, number]).sort(([a], [b]) => a.localeCompare(b));
      assert.deepEqual(seen, expected, `${adapter}: every skill with every file`);
      assert.ok(
        skills.every((s) => s.verified),
        `${adapter}: every file verified against its digest`,
      );
    }
  });
}

test('the skillmount command installed from its tarball checks the skills', async () => {
  const out = await sh(path.join(app, 'node_modules/.bin/skillmount'), ['check', 'skills'], 60_000);
  assert.match(out, new RegExp(`${exampleSkills().size} skills valid, 0 problems`));
});
