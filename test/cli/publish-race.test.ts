/**
 * `skillmount publish`'s folder walk (the check, then the upload reads) under the symlink-swap
 * race: while another process swaps each skill's `ref` folder with a hidden symlink to a folder
 * outside the root, the folder is checked and published again and again into a target that keeps
 * what it is given. Not one byte from outside may be checked, hashed or uploaded.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fsStorage } from '@skillmount/storage-fs';
import { checkFolder } from '../../packages/cli/src/publish/local.js';
import { runPublish } from '../../packages/cli/src/publish/run.js';
import type { PublishTarget } from '../../packages/cli/src/publish/target.js';
import { arena, duringSwaps, hasSecret, SECRET_DIGEST, SKILLS, unswap } from '../support/swap-loop.js';

let a: ReturnType<typeof arena>;
before(() => (a = arena()));
after(() => a.remove());

test('publish under a symlink-swap race never checks, hashes or uploads a file from outside the folder', async () => {
  const uploaded = new Map<string, Uint8Array>();
  const target: PublishTarget = {
    list: async () => new Map(),
    same: () => false,
    put: async (file, bytes) => void uploaded.set(file, bytes),
    remove: async () => {},
  };
  const quiet = () => ({ step() {}, end() {} });
  let published = 0;
  let refused = 0;
  const attempt = async () => {
    const storage = fsStorage(a.root);
    const checked = await checkFolder(storage);
    for (const file of checked.files) {
      assert.notEqual(file.digest, SECRET_DIGEST, `${file.path}: the check hashed the outside file`);
      assert.doesNotMatch(file.path, /^skill-\d\/ref\/SKILL\.md$/, 'the check walked into the outside folder');
    }
    try {
      await runPublish({ folder: storage, files: checked.files, target, delete: false, dryRun: false, concurrency: 4, progress: quiet });
      published++;
    } catch (error) {
      // A file met swapped after the check is refused, and says so.
      assert.match((error as Error).message, /^"skill-\d\/ref\/notes\.md" (cannot be read again|changed while publishing)/);
      refused++;
    }
    for (const [file, bytes] of uploaded) assert.ok(!hasSecret(bytes), `${file}: the outside bytes were uploaded`);
  };
  const { runs } = await duringSwaps(a.pairs, attempt);
  assert.ok(runs >= 3, `the race ran (${runs} publishes, ${published} went through, ${refused} refused)`);
  // On a loaded machine every publish under the race may be refused; once the swapping stops and
  // the folder is as it was, it publishes whole, so the refusals were the race's and not a walk that
  // refuses everything.
  unswap(a.pairs);
  uploaded.clear();
  const before = published;
  await attempt();
  assert.equal(published, before + 1, 'a publish after the swapping stopped went through');
  const every = Array.from({ length: SKILLS }, (_, i) => [`skill-${i}/SKILL.md`, `skill-${i}/ref/notes.md`]).flat();
  assert.deepEqual([...uploaded.keys()].sort(), every.sort());
});
