import { StorageError } from '../errors.js';
import { isPlainPath } from '../storage-kit/paths.js';
import type { SkillFileEntry, SkillFiles } from '../types.js';

export interface MemoryStorage extends SkillFiles {
  /** Add or replace a file (folders are implied by paths); watchers are told. */
  write(path: string, content: string | Uint8Array): void;
  /** Remove a file, or a folder and everything under it; watchers are told. */
  remove(path: string): void;
}

/**
 * An in-memory storage for tests and generated content. Keys are relative `/`-separated paths
 * (`refunds/SKILL.md`); folders are implied. Each file carries a change token.
 *
 * @example
 * ```ts
 * import { SkillCatalog, memoryStorage } from '@skillmount/core';
 *
 * const storage = memoryStorage({ 'refunds/SKILL.md': '---\nname: refunds\ndescription: Handle refunds.\n---\n' });
 * const catalog = await SkillCatalog.load(storage);
 * catalog.watch();
 * storage.write('refunds/notes.md', 'Refund within 30 days.'); // the catalog reloads
 * ```
 * @throws {@link StorageError} when a key of `record` is not a relative path of plain segments
 * (`write` and `remove` throw it too).
 */
export function memoryStorage(record: Readonly<Record<string, string | Uint8Array>> = {}): MemoryStorage {
  const files = new Map<string, { bytes: Uint8Array; version: number }>();
  const watchers = new Set<() => void>();
  let version = 0;
  const encoder = new TextEncoder();

  const check = (path: string) => {
    if (!isPlainPath(path)) throw new StorageError(`memoryStorage: "${path}" is not a relative path of plain segments`, String(path));
  };
  const write = (path: string, content: string | Uint8Array) => {
    check(path);
    files.set(path, { bytes: typeof content === 'string' ? encoder.encode(content) : new Uint8Array(content), version: ++version });
  };
  for (const [path, content] of Object.entries(record)) write(path, content);
  const notify = () => {
    for (const w of watchers) w();
  };

  return {
    kind: 'memory',
    inMemory: true,
    async list(dir) {
      if (dir !== '') check(dir);
      const prefix = dir === '' ? '' : `${dir}/`;
      const children = new Map<string, SkillFileEntry>();
      for (const [path, file] of files) {
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash < 0) children.set(rest, { name: rest, kind: 'file', token: `${file.version}` });
        else children.set(rest.slice(0, slash), { name: rest.slice(0, slash), kind: 'directory' });
      }
      if (children.size === 0 && dir !== '') throw new StorageError(`memoryStorage: no folder "${dir}"`, dir);
      return [...children.values()];
    },
    async read(path, options) {
      check(path);
      const file = files.get(path);
      if (!file) throw new StorageError(`memoryStorage: no file "${path}"`, path);
      const maxBytes = options?.maxBytes;
      if (maxBytes !== undefined && file.bytes.byteLength > maxBytes) {
        throw new StorageError(
          `memoryStorage: "${path}" is ${file.bytes.byteLength} bytes, more than the ${maxBytes} expected (it changed since it was listed); reload the catalog`,
          path,
          { code: 'too-large' },
        );
      }
      return file.bytes.slice();
    },
    // Every write and removal bumps `version`: the same number means the same files.
    async treeToken() {
      return `${version}`;
    },
    watch(onChange) {
      watchers.add(onChange);
      return () => watchers.delete(onChange);
    },
    write(path, content) {
      write(path, content);
      notify();
    },
    remove(path) {
      check(path);
      for (const key of [...files.keys()]) if (key === path || key.startsWith(`${path}/`)) files.delete(key);
      version++;
      notify();
    },
  };
}
