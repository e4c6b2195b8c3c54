/**
 * The telemetry cost bench (bench/telemetry/run.ts) runs: a server per kind and mode, every read
 * verified against the listing's digest, one line per mode with its CPU per read and, for each
 * mode with OpenTelemetry, its ratio to the same server with none. The figures themselves are the bench's
 * to report, not this test's to judge.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { TYPESCRIPT_IMPORT } from '../../scripts/typescript-import.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('bench/telemetry/run.ts: a line per mode on each server, each read verified', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...TYPESCRIPT_IMPORT, 'bench/telemetry/run.ts', '--sets', '2', '--warm-up', '20', '--rounds', '1', '--reads', '40'],
    {
      cwd: ROOT,
    },
  );
  const lines = stdout.trim().split('\n');
  const ratio = String.raw`median \d+\.\d \(spread \d+\.\d–\d+\.\d\), ×\d\.\d{3} of no OpenTelemetry \(rounds \d\.\d{3}–\d\.\d{3}\)$`;
  const mode = (label: string) => new RegExp(`^ {2}${label}: ${ratio}`);
  const none = /^ {2}no OpenTelemetry: median \d+\.\d \(spread \d+\.\d–\d+\.\d\)$/;
  const expected = [
    /^Server CPU per verified resources\/read \(µs\), 2 sets of servers × 1 interleaved rounds of 40 reads/,
    /^the skills endpoint alone on node:http:$/,
    none,
    mode('instrumentSkills, API without an SDK'),
    mode('instrumentSkills, SDK recording every span'),
    mode('the same SDK, instrumentSkills not called'),
    mode('instrumentSkills, SDK recording every span, no meter provider'),
    mode('the same SDK, a bare span per request, instrumentSkills not called'),
    mode('the same SDK with no span processor, a bare span per request, instrumentSkills not called'),
    /^a Fastify app with the skills plugin and its own McpServer:$/,
    none,
    mode('instrumentSkills, API without an SDK'),
    mode('instrumentSkills, SDK recording every span'),
    mode('the same SDK, instrumentSkills not called'),
  ];
  assert.equal(lines.length, expected.length, stdout);
  for (const [i, pattern] of expected.entries()) assert.match(lines[i]!, pattern);
});
