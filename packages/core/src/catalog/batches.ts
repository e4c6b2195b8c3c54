import { sha256Digest } from '../bytes/digest.js';
import { isSkillMdPath } from '../storage-kit/skill-folders.js';
import type { SkillFileListing, SkillFiles } from '../types.js';
import { frontmatterOf } from './records.js';
import type { ByteBudget } from './byte-budget.js';
import type { ListedEntry } from './reuse.js';
import type { FileRecord, ListedState } from './snapshot.js';
import { entryOf, joinPath, rootCallError, TreeBuilder, type StorageTree } from './walk.js';

/**
 * What a batched listing held besides its tree, until the records say which files are served:
 * then it becomes `ReloadMemory.listed` (see `listedState`).
 */
export interface ListedItems {
  count: number;
  /** Kind of every item that is not a file, by path. */
  others: Map<string, string>;
  /** Files the tree does not hold under their own path (a repeated path, a path that is not relative). */
  strays: string[];
}

/**
 * A storage's tree from `listAllBatches`, built as the batches arrive: no whole listing is held
 * beside it, and bytes that come with an item are hashed (a SKILL.md parsed) on arrival and let go,
 * except a SKILL.md's while `keepSkillMd` has room for them. Nothing is built from a listing that
 * fails part way: the failure is thrown.
 */
export async function treeFromBatches(files: SkillFiles, keepSkillMd: ByteBudget | undefined): Promise<{ tree: StorageTree; listed: ListedItems }> {
  const builder = new TreeBuilder();
  const takeContent = (item: SkillFileListing, name: string) => takenEntry(item, name, keepSkillMd);
  const listed: ListedItems = { count: 0, others: new Map(), strays: [] };
  try {
    for await (const batch of files.listAllBatches!()) {
      for (const item of batch) {
        listed.count++;
        const entry = builder.add(item, takeContent);
        if (item.kind !== 'file') listed.others.set(item.path, item.kind);
        else if (!entry) listed.strays.push(item.path);
      }
    }
  } catch (error) {
    throw rootCallError(error, 'cannot list the storage');
  }
  return { tree: builder.done(), listed };
}

/** An item's entry, with its bytes (if any) taken now: what the records phase would make of them. */
function takenEntry(item: SkillFileListing, name: string, keepSkillMd: ByteBudget | undefined): ListedEntry {
  const entry: ListedEntry = entryOf(item, name);
  const bytes = entry.content;
  if (item.kind !== 'file' || !(bytes instanceof Uint8Array)) return entry;
  delete entry.content;
  entry.taken = { size: bytes.byteLength, digest: sha256Digest(bytes) };
  if (isSkillMdPath(item.path)) {
    entry.taken.parsed = frontmatterOf(bytes);
    if (keepSkillMd?.take(bytes.byteLength)) entry.taken.bytes = bytes;
  }
  return entry;
}

/** `ReloadMemory.listed` of a batched listing: its items, less the files a snapshot holds records of. */
export function listedState(
  listed: ListedItems,
  tree: StorageTree,
  files: ReadonlyMap<string, FileRecord>,
  unserved: ReadonlyMap<string, FileRecord>,
): ListedState {
  const others = listed.others;
  const other = (path: string) => {
    if (!files.has(path) && !unserved.has(path)) others.set(path, 'file');
  };
  for (const [dir, children] of tree) for (const child of children) if (child.kind === 'file') other(joinPath(dir, child.name));
  for (const path of listed.strays) other(path);
  return { count: listed.count, others };
}
