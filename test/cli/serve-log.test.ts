/**
 * `skillmount serve --log-format json`: one JSON object per line on stdout for the start, each
 * reload, the stop and every warning; a warning about the skills is printed when it appears or
 * changes, not again on every reload (an unchanged invalid skill was printed on each reload, 120
 * lines in 3 minutes under edits every 5 s). A real folder, real edits, a real SIGTERM.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectClient } from '../support/client.js';
import { within } from '../support/wait.js';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');

const children = new Set<ChildProcess>();
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

type Line = {
  time: string;
  level: string;
  event: string;
  msg: string;
  code?: string;
  tenant?: string;
  path?: string;
  url?: string;
  skills?: number;
  changed?: number;
};

/** The child's stdout as parsed JSON lines, with a wait for the next one that matches. */
function jsonLines(child: ChildProcess) {
  const lines: Line[] = [];
  let partial = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    // Every line must parse: a line that does not fails the test here.
    for (const part of parts) lines.push(JSON.parse(part) as Line);
    for (const look of waiters) look();
  });
  const next = (from: number, match: (line: Line) => boolean, what: string) =>
    within(
      new Promise<number>((resolve) => {
        const look = () => {
          const at = lines.findIndex((line, i) => i >= from && match(line));
          if (at === -1) return;
          waiters.delete(look);
          resolve(at);
        };
        waiters.add(look);
        look();
      }),
      30_000,
      `${what}; the lines so far:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`,
    );
  return { lines, next };
}

const skillMd = (name: string, body = '') => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n${body}`;

test('serve --log-format json: start, reloads, stop and warnings as JSON lines; an unchanged warning is not printed again on a reload', async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-log-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const dir of ['good', 'misnamed']) await mkdir(path.join(root, dir));
  await writeFile(path.join(root, 'good/SKILL.md'), skillMd('good'));
  await writeFile(path.join(root, 'misnamed/SKILL.md'), skillMd('other'));

  const serve = spawn(process.execPath, [BIN, 'serve', root, '--port', '0', '--log-format', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(serve);
  let stderr = '';
  serve.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = once(serve, 'exit');
  const { lines, next } = jsonLines(serve);
  const misnamed = (line: Line) => line.event === 'warning' && line.code === 'name-mismatch';

  const serving = await next(0, (l) => l.event === 'serving', 'no serving line');
  assert.equal(lines[serving]!.skills, 1);
  assert.equal(lines.filter(misnamed).length, 1, 'the invalid skill is told at start');

  // Three edits of the valid skill: three reloads, and the invalid one is not told again.
  let at = serving;
  for (let edit = 1; edit <= 3; edit++) {
    await writeFile(path.join(root, 'good/SKILL.md'), skillMd('good', `edit ${edit}\n`));
    at = await next(at + 1, (l) => l.event === 'reloaded' && l.changed === 1, `no reload after edit ${edit}`);
  }
  assert.equal(lines.filter(misnamed).length, 1, 'an unchanged warning is printed once, not on every reload');

  // A changed problem is told; a problem that went away and came back is told again.
  await writeFile(path.join(root, 'misnamed/SKILL.md'), skillMd('another'));
  at = await next(at + 1, (l) => misnamed(l) && l.msg.includes('another'), 'the changed warning was not told');
  await writeFile(path.join(root, 'misnamed/SKILL.md'), skillMd('misnamed'));
  at = await next(at + 1, (l) => l.event === 'reloaded' && l.skills === 2, 'the fixed skill was not served');
  await writeFile(path.join(root, 'misnamed/SKILL.md'), skillMd('other'));
  at = await next(at + 1, (l) => misnamed(l) && l.msg.includes('other'), 'the warning that came back was not told');
  assert.equal(lines.filter(misnamed).length, 3);

  serve.kill('SIGTERM');
  await next(at, (l) => l.event === 'stopping', 'no stopping line');
  await next(at, (l) => l.event === 'stopped', 'no stopped line');
  const [code] = await exited;
  assert.equal(code, 0);
  assert.equal(stderr, '', 'nothing but JSON, and all of it on stdout');
  for (const line of lines) {
    assert.ok(!Number.isNaN(Date.parse(line.time)), JSON.stringify(line));
    assert.ok(['info', 'warn', 'error'].includes(line.level), JSON.stringify(line));
    assert.equal(typeof line.msg, 'string');
  }
  assert.ok(
    lines.filter(misnamed).every((l) => l.level === 'warn' && l.path === 'misnamed/SKILL.md'),
    JSON.stringify(lines.filter(misnamed)),
  );
});

test("serve --tenant-header: a tenant's unchanged warning is printed once, with its tenant, not on every reload of that tenant", async (t) => {
  const root = await mkdtemp(path.join(tmpdir(), 'skillmount-log-tenants-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const dir of ['acme/good', 'acme/misnamed']) await mkdir(path.join(root, dir), { recursive: true });
  await writeFile(path.join(root, 'acme/good/SKILL.md'), skillMd('good'));
  await writeFile(path.join(root, 'acme/misnamed/SKILL.md'), skillMd('other'));
  const args = [BIN, 'serve', root, '--port', '0', '--tenant-header', 'X-Tenant', '--log-format', 'json'];
  const serve = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(serve);
  t.after(() => serve.kill('SIGKILL'));
  const { lines, next } = jsonLines(serve);
  const misnamed = (line: Line) => line.event === 'warning' && line.code === 'name-mismatch';
  const serving = await next(0, (l) => l.event === 'serving', 'no serving line');

  // The tenant loads on its first request, and its watch reloads it on each edit.
  const acme = await connectClient(lines[serving]!.url!, { 'x-tenant': 'acme' });
  t.after(() => acme.close());
  let at = await next(serving, (l) => misnamed(l) && l.tenant === 'acme', "the tenant's invalid skill was not told");
  const served = async (text: string) => {
    for (;;) {
      // Between the write and the reload the old entry's read is refused (the bytes changed): not yet.
      const read = await acme.client.readResource({ uri: 'skill://good/SKILL.md' }).catch(() => undefined);
      if ((read?.contents[0] as { text: string } | undefined)?.text.includes(text)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  for (let edit = 1; edit <= 3; edit++) {
    await writeFile(path.join(root, 'acme/good/SKILL.md'), skillMd('good', `edit ${edit}\n`));
    await within(served(`edit ${edit}`), 30_000, `edit ${edit} was not served`);
  }
  assert.equal(lines.filter(misnamed).length, 1, `an unchanged warning is printed once:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);

  // A changed problem is told again, with its tenant.
  await writeFile(path.join(root, 'acme/misnamed/SKILL.md'), skillMd('another'));
  at = await next(at + 1, (l) => misnamed(l) && l.msg.includes('another'), 'the changed warning was not told');
  assert.equal(lines[at]!.tenant, 'acme');
  assert.match(lines[at]!.msg, /^tenant acme: /);
});

test('serve --log-format refuses a format it does not know', async () => {
  const serve = spawn(process.execPath, [BIN, 'serve', '.', '--log-format', 'yaml'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  serve.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const [code] = await once(serve, 'exit');
  assert.equal(code, 2);
  assert.match(stderr, /--log-format must be text or json, got "yaml"/);
});
