import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
// The parsers' own tables: the help text is checked against what the commands accept.
import { FLAGS } from '../../packages/cli/src/flags.ts';

const BIN = path.resolve(import.meta.dirname, '../../packages/cli/dist/bin.js');
const help = execFileSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });

/** The part of the help about one command: its usage lines and its options section. */
function helpOf(command: keyof typeof FLAGS): string {
  const usage = help
    .split('\n')
    .filter((line) => line.trimStart().startsWith(`skillmount ${command} `))
    .join('\n');
  const header = command === 'ls' || command === 'get' ? 'ls and get options:' : `${command} options:`;
  const start = help.indexOf(`\n${header}\n`);
  assert.notEqual(start, -1, `the help has a "${header}" section`);
  const end = help.indexOf('\n\n', start + 1);
  return `${usage}\n${help.slice(start, end === -1 ? undefined : end)}`;
}

for (const command of Object.keys(FLAGS) as (keyof typeof FLAGS)[]) {
  test(`--help names every option "${command}" accepts, and only those`, () => {
    const text = helpOf(command);
    const flags: Record<string, { type: string }> = FLAGS[command];
    for (const [name, { type }] of Object.entries(flags)) {
      // A boolean is also accepted negated: the help may show either spelling.
      const shown = new RegExp(`--${name}\\b|${type === 'boolean' ? `--no-${name}\\b` : '(?!)'}`);
      assert.match(text, shown, `the help for ${command} leaves out --${name}`);
    }
    for (const [, flag] of text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)) {
      const name = flag!.startsWith('no-') && flags[flag!.slice(3)]?.type === 'boolean' ? flag!.slice(3) : flag!;
      // "--help" is the one flag every command takes before its own parser runs.
      if (name === 'help') continue;
      assert.ok(name in flags, `the help for ${command} names --${flag}, which "skillmount ${command}" does not accept`);
    }
  });
}

test('serve --help prints the help, with the tenant options', () => {
  const text = execFileSync(process.execPath, [BIN, 'serve', '--help'], { encoding: 'utf8' });
  assert.equal(text, help);
  assert.match(text, /--tenant-header <name>/);
  assert.match(text, /--max-tenants <n>/);
});

test('--version, -v and version print the release the CLI belongs to', () => {
  const { version } = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../packages/cli/package.json'), 'utf8'));
  for (const flag of ['--version', '-v', 'version']) {
    assert.equal(execFileSync(process.execPath, [BIN, flag], { encoding: 'utf8' }), `skillmount ${version}\n`, flag);
  }
  assert.match(help, /skillmount --version/);
});
