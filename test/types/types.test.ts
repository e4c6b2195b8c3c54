// The public types, checked as a user's code would see them: the .ts files beside this one import
// the packages by name (resolved to their built declarations) and use @ts-expect-error to prove
// that wrong uses are refused. tsc reports an unused @ts-expect-error as an error too.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

const here = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('the public types accept right uses and refuse wrong ones', () => {
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' });
  assert.equal(result.error, undefined);
  assert.equal(result.status, 0, `tsc found type errors:\n${result.stdout}${result.stderr}`);
});
