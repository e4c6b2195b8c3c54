/**
 * The telemetry cost bench (bench/telemetry/run.ts) runs: a server per mode, every read verified
 * against the listing's digest, one line per mode with its CPU per read and, for each mode with
 * OpenTelemetry, its ratio to none. The figures themselves are the bench's
 * to report, not this test's to judge.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('bench/telemetry/run.ts: a line per mode, each read verified', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT_IMPORT, 'bench/telemetry/run.ts', '--reads', '40', '--rounds', '2'], {
    cwd: ROOT,
  });
  const lines = stdout.trim().split('\n');
  assert.match(lines[0]!, /^Server CPU per verified resources\/read \(µs\), 2 interleaved rounds of 40 reads/);
  assert.match(lines[1]!, /^ {2}no OpenTelemetry: median \d+\.\d \(spread \d+\.\d–\d+\.\d\)$/);
  assert.match(lines[2]!, /^ {2}instrumentSkills, API without an SDK: median \d+\.\d .*×\d\.\d{3} of no OpenTelemetry/);
  assert.match(lines[3]!, /^ {2}instrumentSkills, SDK recording every span: median \d+\.\d .*×\d\.\d{3} of no OpenTelemetry/);
  assert.match(lines[4]!, /^ {2}the same SDK, instrumentSkills not called: median \d+\.\d .*×\d\.\d{3} of no OpenTelemetry/);
  assert.match(lines[5]!, /^ {2}instrumentSkills, SDK recording every span, no meter provider: median \d+\.\d .*×\d\.\d{3} of no OpenTelemetry/);
  assert.match(lines[6]!, /^ {2}the same SDK, a bare span per request, instrumentSkills not called: median \d+\.\d .*×\d\.\d{3} of no OpenTelemetry/);
  assert.equal(lines.length, 7);
});
