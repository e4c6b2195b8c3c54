import { isSkillMdPath, type ListAllOptions, type SkillFileListing } from '@skillmount/core/storage-kit';
import { ROOT, type Folder, type Listed } from './jobs.js';
import type { FileToRead, TreeRunner } from './runner.js';

// Per job: enough to make a message worth its cost, few enough to keep every thread busy.
const FOLDERS_PER_JOB = 16;
const FILES_PER_JOB = 64;

/**
 * The whole tree under `root` as a flat listing. Files a catalog will read (inside a folder
 * holding a SKILL.md) come with their size and digest, and SKILL.md files with their bytes. A
 * first listing reads them while walking; with `known` (a reload), the walk only stats them, and
 * just the files whose token changed are read, as separate jobs.
 */
export async function listTree(root: string, runner: TreeRunner, options: ListAllOptions = {}): Promise<SkillFileListing[]> {
  const known = typeof options.known === 'function' ? options.known : undefined;
  const listing: SkillFileListing[] = [];
  const running: Promise<void>[] = [];
  let foldersInFlight = 0;
  let toRead: FileToRead[] = [];

  const track = (work: Promise<void>) => {
    work.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile
    running.push(work);
  };
  const add = (items: readonly Listed[]) => {
    for (const item of items) listing.push(item.wanted ? { path: item.path, kind: item.kind, token: item.token! } : item);
  };
  const sendReads = () => {
    const files = toRead;
    toRead = [];
    track(runner.files(root, files).then(add));
  };
  const take = (items: readonly Listed[]) => {
    for (const item of items) {
      if (!item.wanted || known?.(item.path) === item.token) {
        add([item]);
        continue;
      }
      toRead.push({ path: item.path, content: isSkillMdPath(item.path) });
      if (toRead.length === FILES_PER_JOB) sendReads();
    }
  };
  const walk = (folders: readonly Folder[]) => {
    // Small batches are split too, so that each thread gets a share early on.
    const per = Math.max(1, Math.min(FOLDERS_PER_JOB, Math.ceil(folders.length / 4)));
    for (let i = 0; i < folders.length; i += per) {
      foldersInFlight++;
      track(
        runner.folders(root, folders.slice(i, i + per), known === undefined).then((walked) => {
          foldersInFlight--;
          take(walked.items);
          walk(walked.folders);
          if (foldersInFlight === 0 && toRead.length > 0) sendReads();
        }),
      );
    }
  };

  walk([ROOT]);
  // `running` grows while it is awaited: every job started by a finished one is awaited too.
  for (let i = 0; i < running.length; i++) await running[i];
  return listing;
}
