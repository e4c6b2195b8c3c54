/**
 * The release configuration (.changeset/config.json) and scripts/release-version.mjs, run for real
 * on a scratch copy of the checkout: a changeset for one package moves all seven to one new
 * version, core's VERSION and the root CHANGELOG.md follow, and a packed package depends on the
 * others at the new version. Offline: changesets' default changelog needs only the local git.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const packageDirs = readdirSync(path.join(root, 'packages')).sort();
const manifest = (dir: string, name: string) => JSON.parse(readFileSync(path.join(dir, 'packages', name, 'package.json'), 'utf8'));
const ourNames = packageDirs.map((name) => manifest(root, name).name as string);
const config = JSON.parse(readFileSync(path.join(root, '.changeset/config.json'), 'utf8'));

/** The files the release scripts read, copied into a scratch git repository (changesets reads commits). */
function scratchCheckout(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillmount-release-'));
  const files = ['package.json', 'pnpm-workspace.yaml', 'LICENSE', 'CHANGELOG.md', '.changeset/config.json', 'packages/core/src/version.ts'];
  for (const file of files) cpSync(path.join(root, file), path.join(dir, file));
  for (const name of packageDirs) {
    for (const file of ['package.json', 'LICENSE']) cpSync(path.join(root, 'packages', name, file), path.join(dir, 'packages', name, file));
  }
  // changesets loads its changelog module from the checkout's node_modules.
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=release test', '-c', 'user.email=release@test.invalid', ...args], { cwd: dir });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'scratch');
  return dir;
}

/** The links `pnpm install` would make from a package to the packages it depends on. */
function linkWorkspaceDependencies(dir: string, name: string): void {
  const json = manifest(dir, name);
  for (const dependency of Object.keys(json.dependencies ?? {})) {
    const target = packageDirs.find((other) => manifest(dir, other).name === dependency);
    if (!target) continue;
    const link = path.join(dir, 'packages', name, 'node_modules', dependency);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(path.join(dir, 'packages', target), link);
  }
}

test('one fixed group holds every workspace package; internal dependencies are bumped; access is public', () => {
  assert.equal(config.fixed.length, 1, 'one fixed group: the packages are released together under one version');
  assert.deepEqual([...config.fixed[0]].sort(), [...ourNames].sort(), 'a package missing from the fixed group would be versioned on its own');
  assert.deepEqual(config.linked, []);
  assert.equal(config.updateInternalDependencies, 'patch');
  assert.equal(config.access, 'public');
  assert.equal(config.baseBranch, 'main');
  assert.equal(config.commit, false, 'the release workflow commits the version pull request itself');
});

test('a changeset for one package moves all seven, core VERSION, the changelogs and the packed ranges to one version', () => {
  const dir = scratchCheckout();
  try {
    const before = manifest(dir, 'core').version as string;
    const [major, minor] = before.split('.').map(Number);
    const next = `${major}.${minor! + 1}.0`;
    const unreleased = /## Unreleased\n([\s\S]*?)\n## /.exec(readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8'))?.[1]?.trim() ?? '';
    writeFileSync(path.join(dir, '.changeset/brave-new-option.md'), "---\n'@skillmount/fastify': minor\n---\n\nA new option.\n");

    const result = spawnSync(process.execPath, [path.join(root, 'scripts/release-version.mjs'), '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);

    for (const name of packageDirs) {
      const json = manifest(dir, name);
      assert.equal(json.version, next, `${json.name} is not at ${next}`);
      for (const [dependency, range] of Object.entries(json.dependencies ?? {})) {
        if (ourNames.includes(dependency)) assert.equal(range, 'workspace:^', `${json.name} → ${dependency}`);
      }
      assert.match(readFileSync(path.join(dir, 'packages', name, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${next.replace(/\./g, '\\.')}$`, 'm'));
    }
    assert.match(readFileSync(path.join(dir, 'packages/fastify/CHANGELOG.md'), 'utf8'), /### Minor Changes\n\n- (?:[0-9a-f]+: )?A new option\./);
    assert.match(readFileSync(path.join(dir, 'packages/core/src/version.ts'), 'utf8'), new RegExp(`VERSION = '${next}'`));
    assert.equal(existsSync(path.join(dir, '.changeset/brave-new-option.md')), false, 'the changeset is consumed');

    // The root CHANGELOG: an empty Unreleased, then the new section holding what Unreleased held.
    const changelog = readFileSync(path.join(dir, 'CHANGELOG.md'), 'utf8');
    const section = new RegExp(`## Unreleased\\n\\n## ${next.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)\\n\\n([\\s\\S]*?)\\n\\n## `).exec(changelog);
    assert.ok(section, `CHANGELOG.md has no empty Unreleased followed by a ${next} section:\n${changelog.slice(0, 800)}`);
    assert.equal(section[1], unreleased || '- A new option.');

    // What users install: pnpm rewrites `workspace:^` into a range of the new version.
    linkWorkspaceDependencies(dir, 'cli');
    const packs = path.join(dir, 'packs');
    const pnpm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager as string;
    execFileSync('npx', ['--prefer-offline', '-y', pnpm, 'pack', '--pack-destination', packs], {
      cwd: path.join(dir, 'packages/cli'),
      stdio: 'pipe',
      timeout: 60_000,
    });
    const tarball = path.join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    const internal = Object.entries(packed.dependencies as Record<string, string>).filter(([name]) => ourNames.includes(name));
    assert.equal(internal.length, 6, 'the CLI depends on the six other packages');
    for (const [name, range] of internal) assert.equal(range, `^${next}`, `the packed CLI's range for ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with no pending changeset the version step changes nothing', () => {
  const dir = scratchCheckout();
  try {
    const result = spawnSync(process.execPath, [path.join(root, 'scripts/release-version.mjs'), '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /no pending changesets/);
    assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the publish step holds back a version CHANGELOG.md marks "(not yet published)"', () => {
  const dir = scratchCheckout();
  try {
    const version = manifest(dir, 'core').version as string;
    writeFileSync(path.join(dir, 'CHANGELOG.md'), `# Changelog\n\n## Unreleased\n\n## ${version} (not yet published)\n\nFirst release.\n`);
    const result = spawnSync(process.execPath, [path.join(root, 'scripts/release-publish.mjs'), '--root', dir], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`marks ${version.replace(/\./g, '\\.')} "\\(not yet published\\)"; not publishing`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
