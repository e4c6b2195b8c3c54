import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SkillCatalog, memoryStorage, sha256Digest, type ListAllOptions, type SkillFileListing, type SkillFiles } from '@skillmount/core';
import { listedFiles } from '../support/listed-files.js';
import { skillMd } from '../support/skill-md.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** A storage whose whole-tree listing brings SKILL.md bytes along and honours `known`, as a folder's does. */
function bulkStorage(files: Record<string, string>) {
  const state = { files, reads: [] as string[], knownAsked: [] as (ListAllOptions | undefined)[], version: 1 };
  const storage: SkillFiles = {
    list: (dir) => memoryStorage(state.files).list(dir),
    async read(path) {
      state.reads.push(path);
      return memoryStorage(state.files).read(path);
    },
    async listAll(options) {
      state.knownAsked.push(options);
      return Object.entries(state.files).map(([path, text]): SkillFileListing => {
        const token = `${text.length}:${sha256Digest(encode(text)).slice(7, 15)}`;
        if (options?.known?.(path) === token) return { path, kind: 'file', token };
        return path.endsWith('SKILL.md') ? { path, kind: 'file', token, content: encode(text) } : { path, kind: 'file', token };
      });
    },
  };
  return { storage, state };
}

describe('listing content and known tokens', () => {
  test('SKILL.md bytes that come with the listing are used instead of a read, and counted', async () => {
    const { storage, state } = bulkStorage({ 'a/SKILL.md': skillMd('a'), 'a/notes.md': 'notes', 'b/SKILL.md': skillMd('b') });
    const catalog = await SkillCatalog.load(storage);
    assert.deepEqual(state.reads, ['a/notes.md'], 'only the file the listing had no bytes for is read');
    assert.equal(catalog.bodiesRead, 3);
    assert.equal(state.knownAsked[0], undefined, 'a first load knows no tokens');
    const a = catalog.entries.find((e) => e.uri === 'skill://a/SKILL.md')!;
    assert.equal(a.frontmatter.name, 'a');
    assert.equal(listedFiles(a).find((r) => r.uri === 'skill://a/SKILL.md')!.digest, sha256Digest(encode(skillMd('a'))));
  });

  test('a reload passes the tokens it holds; unchanged files come back bare and nothing is read', async () => {
    const { storage, state } = bulkStorage({ 'a/SKILL.md': skillMd('a'), 'a/notes.md': 'notes', 'b/SKILL.md': skillMd('b') });
    const catalog = await SkillCatalog.load(storage);
    state.reads.length = 0;
    assert.equal((await catalog.reload()).listChanged, false);
    assert.deepEqual(state.reads, []);
    assert.equal(catalog.bodiesRead, 0);
    const known = state.knownAsked[1]!.known!;
    assert.equal(typeof known('a/SKILL.md'), 'string');
    assert.equal(known('no/such/file'), undefined);

    state.files = { ...state.files, 'b/SKILL.md': skillMd('b', 'A new description.') };
    const report = await catalog.reload();
    assert.deepEqual(report.changed, ['skill://b/SKILL.md']);
    assert.deepEqual(state.reads, [], 'the changed SKILL.md came with the listing');
    assert.equal(catalog.bodiesRead, 1);
    assert.equal(catalog.entries.find((e) => e.uri === 'skill://b/SKILL.md')!.frontmatter.description, 'A new description.');
  });
});
