import { StorageError } from '../errors.js';
import { toStorageError } from '../storage-kit/errors.js';
import { mapLimit } from '../storage-kit/limit.js';
import { isSingleSegment, joinPath } from '../storage-kit/paths.js';
import type { ListAllOptions, SkillFileEntry, SkillFileListing, SkillFiles } from '../types.js';

export { joinPath };

/** Every directory of a storage, by relative path (`''` = root), with its children as listed. */
export type StorageTree = Map<string, SkillFileEntry[]>;

/** The storage's whole-tree listing (`listAll`, or every batch of `listAllBatches`), or undefined when it has none. */
export async function listAllOf(files: SkillFiles, options?: ListAllOptions): Promise<SkillFileListing[] | undefined> {
  const batched = typeof files.listAll !== 'function' && typeof files.listAllBatches === 'function';
  if (typeof files.listAll !== 'function' && !batched) return undefined;
  try {
    if (batched) return await collectBatches(files, options);
    return await (options ? files.listAll!(options) : files.listAll!());
  } catch (error) {
    throw rootCallError(error, 'cannot list the storage');
  }
}

/** A failed call on the whole storage as a StorageError of the root saying `<attempt>: <why>` (a storage's own StorageError as it is). */
export function rootCallError(error: unknown, attempt: string): StorageError {
  if (error instanceof StorageError) return error;
  return new StorageError(`${attempt}: ${(error as Error)?.message ?? error}`, '', { cause: error });
}

async function collectBatches(files: SkillFiles, options?: ListAllOptions): Promise<SkillFileListing[]> {
  const listing: SkillFileListing[] = [];
  for await (const batch of options ? files.listAllBatches!(options) : files.listAllBatches!()) for (const item of batch) listing.push(item);
  return listing;
}

/** The storage's tree token (`treeToken`), or undefined when it has none or cannot tell. */
export async function treeTokenOf(files: SkillFiles): Promise<string | undefined> {
  if (typeof files.treeToken !== 'function') return undefined;
  let token: unknown;
  try {
    token = await files.treeToken();
  } catch (error) {
    throw rootCallError(error, 'cannot ask the storage whether it changed (treeToken)');
  }
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/**
 * List the whole storage: one `listAll()` call when the storage has it, else breadth-first with
 * `concurrency` listings in flight. A failed listing fails the walk.
 */
export async function walkStorage(files: SkillFiles, concurrency: number): Promise<StorageTree> {
  const listing = await listAllOf(files);
  if (listing) return treeFromListing(listing);
  const tree: StorageTree = new Map();
  let level = [''];
  while (level.length > 0) {
    const listed = await mapLimit(level, concurrency, async (dir) => {
      try {
        return await files.list(dir);
      } catch (error) {
        throw toStorageError(error, 'cannot list', dir);
      }
    });
    const nextLevel: string[] = [];
    level.forEach((dir, i) => {
      const children = listed[i]!;
      tree.set(dir, children);
      for (const child of children) {
        if (child.kind === 'directory' && isPlainName(child.name)) nextLevel.push(joinPath(dir, child.name));
      }
    });
    level = nextLevel;
  }
  return tree;
}

/** A name a storage may legitimately return as one path segment. */
export const isPlainName = isSingleSegment;

/** Rebuild per-folder listings from a flat one, adding the folders that paths imply. */
export function treeFromListing(listing: readonly SkillFileListing[]): StorageTree {
  const builder = new TreeBuilder();
  for (const item of listing) builder.add(item);
  return builder.done();
}

/**
 * A tree built from a flat listing item by item, as batches of it arrive: the same tree as
 * `treeFromListing` of all of them in that order. Each folder is checked, and its parents added,
 * once: later files in it cost one lookup of their folder part. The folder strings kept are the
 * ones the maps already hashed.
 */
export class TreeBuilder {
  readonly #tree: StorageTree = new Map([['', []]]);
  // Names seen per folder (a listing may repeat a path, or name a file where a path implies a folder).
  #names: Map<string, Set<string>> | undefined = new Map([['', new Set()]]);
  #folders: Map<string, string> | undefined = new Map([['', '']]);

  /**
   * Add one item; returns its entry when it went into the tree under its own path, or undefined
   * (a repeated name, or a path that is not a relative path, kept as an `unsupported` entry).
   */
  add(item: SkillFileListing, entry: (item: SkillFileListing, name: string) => SkillFileEntry = entryOf): SkillFileEntry | undefined {
    const slash = item.path.lastIndexOf('/');
    const raw = slash < 0 ? '' : item.path.slice(0, slash);
    const name = item.path.slice(slash + 1);
    const dir = isPlainName(name) ? this.#folderOf(raw) : undefined;
    // A path with an empty, "." or ".." segment could not be a relative path: never walk into it.
    if (dir === undefined) {
      this.#add(raw === '' || raw.split('/').every(isPlainName) ? raw : '', { name: item.path, kind: 'unsupported' });
      return undefined;
    }
    const added = this.#add(dir, entry(item, name));
    if (item.kind === 'directory' && !this.#tree.has(item.path)) {
      this.#tree.set(item.path, []);
      this.#names!.set(item.path, new Set());
    }
    return added;
  }

  /** The tree; the lookups that built it are let go. */
  done(): StorageTree {
    this.#names = undefined;
    this.#folders = undefined;
    return this.#tree;
  }

  #seen(dir: string, name: string): boolean {
    let known = this.#names!.get(dir);
    if (!known) {
      known = new Set();
      this.#names!.set(dir, known);
      this.#tree.set(dir, []);
    }
    if (known.has(name)) return true;
    known.add(name);
    return false;
  }

  #add(dir: string, entry: SkillFileEntry): SkillFileEntry | undefined {
    if (this.#seen(dir, entry.name)) return undefined;
    this.#tree.get(dir)!.push(entry);
    return entry;
  }

  #folderOf(raw: string): string | undefined {
    const folders = this.#folders!;
    const known = folders.get(raw);
    if (known !== undefined) return known;
    const segments = raw.split('/');
    if (!segments.every(isPlainName)) return undefined;
    let dir = '';
    for (const name of segments) {
      if (!this.#seen(dir, name)) this.#tree.get(dir)!.push({ name, kind: 'directory' });
      dir = folders.get(joinPath(dir, name)) ?? joinPath(dir, name);
    }
    folders.set(raw, dir);
    return dir;
  }
}

export function entryOf(item: SkillFileListing, name: string): SkillFileEntry {
  const entry: SkillFileEntry = { name, kind: item.kind };
  if (item.token !== undefined) entry.token = item.token;
  if (item.size !== undefined) entry.size = item.size;
  if (item.digest !== undefined) entry.digest = item.digest;
  if (item.content !== undefined) entry.content = item.content;
  return entry;
}
