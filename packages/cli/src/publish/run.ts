import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { isSkillMdPath, mapLimit } from '@skillmount/core/storage-kit';
import type { FsStorage } from '@skillmount/storage-fs';
import type { Progress } from '../progress.js';
import { type LocalFile, readChecked } from './local.js';
import type { PublishTarget, StoredFile } from './target.js';

export interface PublishRun {
  /** The folder the files are read from: through its storage, which reads only what is inside it. */
  folder: Pick<FsStorage, 'root' | 'read'>;
  /** The files to publish (those of the valid skills). */
  files: LocalFile[];
  /** Files publish made itself (`--sign`'s signatures), by path: uploaded from these bytes, not read from the folder. */
  made?: ReadonlyMap<string, Uint8Array>;
  target: PublishTarget;
  /** Remove stored files that no longer exist in the folder. */
  delete: boolean;
  /** Compare only: write and remove nothing. */
  dryRun: boolean;
  /** Requests in flight. */
  concurrency: number;
  /** Called once the work is known, with the number of steps (files compared + files removed). */
  progress(total: number): Progress;
}

export interface PublishResult {
  /** Paths uploaded (or, in a dry run, that would be). */
  uploaded: string[];
  /** How many files were already stored with the same bytes. */
  unchanged: number;
  /** Paths removed (or, in a dry run, that would be). */
  removed: string[];
  /** Stored paths that no longer exist in the folder, left in place because `delete` was off. */
  kept: string[];
}

/**
 * Upload what changed and, with `delete`, remove what is gone. Each SKILL.md is written after the
 * other files and removed before them, so a server that reloads halfway through sees a new skill
 * only once its files are there, and a removed skill disappear before its files do. The first
 * failure stops new requests; files already written stay written, and running again resumes.
 */
export async function runPublish(run: PublishRun): Promise<PublishResult> {
  const stored = await run.target.list();
  const local = new Set(run.files.map((f) => f.path));
  const gone: string[] = [];
  for (const storedPath of stored.keys()) {
    if (local.has(storedPath)) continue;
    // Only files deleted from the folder: the files of a skill that failed the check (--force) stay.
    if (!(await exists(path.join(run.folder.root, ...storedPath.split('/'))))) gone.push(storedPath);
  }
  gone.sort();
  const removals = run.delete ? gone : [];
  const progress = run.progress(run.files.length + removals.length);
  const result: PublishResult = { uploaded: [], unchanged: 0, removed: [], kept: run.delete ? [] : gone };
  const held: StoredFile[] = [];

  const upload = async (file: LocalFile) => {
    // Never more than the checked size: a file replaced since by a larger one is refused, not read.
    const bytes = run.made?.get(file.path) ?? (await readChecked(run.folder, file));
    const remote = stored.get(file.path);
    if (remote && run.target.same(remote, bytes)) {
      result.unchanged++;
    } else {
      if (!run.dryRun) await run.target.put(file.path, bytes);
      result.uploaded.push(file.path);
    }
    held.push(isSkillMdPath(file.path) ? { ...file, bytes } : file);
    progress.step(file.path);
  };
  const remove = async (storedPath: string) => {
    if (!run.dryRun) await run.target.remove(storedPath);
    result.removed.push(storedPath);
    progress.step(storedPath);
  };

  try {
    await mapLimit(
      run.files.filter((f) => !isSkillMdPath(f.path)),
      run.concurrency,
      upload,
    );
    await mapLimit(
      run.files.filter((f) => isSkillMdPath(f.path)),
      run.concurrency,
      upload,
    );
    await mapLimit(removals.filter(isSkillMdPath), run.concurrency, remove);
    await mapLimit(
      removals.filter((p) => !isSkillMdPath(p)),
      run.concurrency,
      remove,
    );
    if (!run.dryRun) await run.target.finish?.(held);
  } catch (error) {
    progress.end('failed');
    throw error;
  }
  progress.end(run.dryRun ? 'compared (dry run)' : 'done');
  result.uploaded.sort();
  result.removed.sort();
  return result;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw error;
  }
}
