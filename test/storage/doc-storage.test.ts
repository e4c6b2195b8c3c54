/**
 * The hand-written storage of the documentation (docs/reference/sources.md, "Writing a storage"), run through the same battery
 * as every storage here: the example must keep the contract it illustrates.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { SkillFiles } from '@skillmount/core';
import { runStorageBattery } from '../support/storage-battery.js';

const root = path.resolve(import.meta.dirname, '../..');
const page = readFileSync(path.join(root, 'docs/reference/sources.md'), 'utf8');
const code = /A storage over a `Map`, written by hand[^\n]*\n+```ts\n([\s\S]*?)\n```/.exec(page)?.[1];
if (!code) throw new Error('docs/reference/sources.md no longer has the hand-written storage example');

// Inside the repository, so that its imports resolve as they would in an app.
const folder = mkdtempSync(path.join(root, 'test/storage/.doc-example-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(path.join(folder, 'map-storage.ts'), code);
const { mapStorage } = (await import(pathToFileURL(path.join(folder, 'map-storage.ts')).href)) as { mapStorage(files: Map<string, Uint8Array>): SkillFiles };

const maps = new WeakMap<SkillFiles, Map<string, Uint8Array>>();
runStorageBattery('the documentation example storage', {
  async open(files) {
    const map = new Map(Object.entries(files));
    const storage = mapStorage(map);
    maps.set(storage, map);
    return storage;
  },
  rewrite: async (storage, rel, bytes) => void maps.get(storage)!.set(rel, bytes),
  optional: { listAll: false, inMemory: false, watch: false, close: false },
});
