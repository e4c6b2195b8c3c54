import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { skillDigest, skillDigestManifest } from '@skillmount/core/client';

const REPO = path.resolve(import.meta.dirname, '../..');

interface Vectors {
  vectors: { name: string; files: { path: string; digest: string }[]; manifestHex: string; digest: string }[];
  refused: { name: string; files: { path: string; digest: string }[]; error: string }[];
}

describe('the skill digest', () => {
  const published = JSON.parse(readFileSync(path.join(REPO, 'packages/core/src/trust/vectors.json'), 'utf8')) as Vectors;

  test('every published vector gives its manifest and digest, in any input order', async () => {
    for (const vector of published.vectors) {
      assert.equal(Buffer.from(skillDigestManifest(vector.files)).toString('hex'), vector.manifestHex, vector.name);
      assert.equal(await skillDigest(vector.files), vector.digest, vector.name);
      assert.equal(await skillDigest([...vector.files].reverse()), vector.digest, `${vector.name} (reversed)`);
    }
  });

  test('every published refusal names its problem', async () => {
    for (const vector of published.refused) {
      await assert.rejects(skillDigest(vector.files), (e: Error) => e instanceof TypeError && e.message.includes(vector.error), vector.name);
    }
  });
});
