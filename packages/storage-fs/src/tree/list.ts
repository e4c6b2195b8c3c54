import { isSkillMdPath, type ListAllOptions, type SkillFileListing } from '@skillmount/core/storage-kit';
import { ROOT, type Folder, type Listed, type Walked } from './jobs.js';
import type { FileToRead, TreeRunner } from './runner.js';

// Per job: enough to make a message worth its cost, few enough to keep every thread busy.
const FOLDERS_PER_JOB = 32;
const FILES_PER_JOB = 64;

/** Where a listing's items go, a batch per finished job; `stopped` once nobody wants more. */
export interface ListingSink {
  take(items: SkillFileListing[]): void;
  stopped?: boolean;
}

/** One folder as a listing saw it, kept for the next: files a catalog reads by token only, never their bytes. */
export interface KeptFolder {
  inSkill: boolean;
  items: Listed[];
  folders: Folder[];
}

/** How a listing reuses an earlier one: folders nothing since says changed are taken as they were. */
export interface Reuse {
  /** The folder as kept from before, or undefined to list it. */
  kept(folder: Folder): KeptFolder | undefined;
  /** Each folder this listing saw (listed or kept), for the next listing. */
  seen(dir: string, folder: KeptFolder): void;
}

/**
 * The whole tree under `root` as a flat listing, handed to `sink` a batch at a time as jobs
 * finish. Files a catalog will read (inside a folder holding a SKILL.md) come with their size and
 * digest, and SKILL.md files with their bytes. A first listing reads them while walking; with
 * `known` (a reload), the walk only stats them, and just the files whose token changed are read,
 * as separate jobs. With `reuse`, folders it keeps are not listed again: their files go through
 * the same rule (read again unless `known` has their token).
 */
export async function listInto(root: string, runner: TreeRunner, options: ListAllOptions, sink: ListingSink, reuse?: Reuse): Promise<void> {
  const known = typeof options.known === 'function' ? options.known : undefined;
  const running: Promise<void>[] = [];
  let foldersInFlight = 0;
  let toRead: FileToRead[] = [];

  const track = (work: Promise<void>) => {
    work.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile
    running.push(work);
  };
  // Kept items are `shared` with the next listing: the sink gets copies, whatever it does with them.
  const add = (items: readonly Listed[], shared = false) => {
    const batch: SkillFileListing[] = [];
    for (const item of items) batch.push(item.wanted ? { path: item.path, kind: item.kind, token: item.token! } : shared ? { ...item } : item);
    if (batch.length > 0) sink.take(batch);
  };
  const sendReads = () => {
    const files = toRead;
    toRead = [];
    if (!sink.stopped) track(runner.files(root, files).then((items) => add(items)));
  };
  const take = (items: readonly Listed[], shared = false) => {
    const listed: Listed[] = [];
    for (const item of items) {
      if (!item.wanted || known?.(item.path) === item.token) {
        listed.push(item);
        continue;
      }
      toRead.push({ path: item.path, content: isSkillMdPath(item.path) });
      if (toRead.length === FILES_PER_JOB) sendReads();
    }
    add(listed, shared);
  };
  // Folders wait here until a thread is free, so that each job takes a full share of them: a job
  // per folder as it is found would cost a round trip between threads for each.
  const waiting: Folder[] = [];
  const sendFolders = () => {
    while (waiting.length > 0 && foldersInFlight < runner.parallelism * 2 && !sink.stopped) {
      const per = Math.max(1, Math.min(FOLDERS_PER_JOB, Math.ceil(waiting.length / runner.parallelism)));
      foldersInFlight++;
      track(
        runner.folders(root, waiting.splice(0, per), known === undefined).then((walked) => {
          foldersInFlight--;
          for (const one of walked) {
            reuse?.seen(one.folder.dir, keptOf(one));
            take(one.items);
            walk(one.folders);
          }
          sendFolders();
          if (foldersInFlight === 0 && toRead.length > 0) sendReads();
        }),
      );
    }
  };
  const walk = (folders: readonly Folder[]) => {
    if (sink.stopped) return;
    for (const folder of folders) {
      const kept = reuse?.kept(folder);
      if (!kept) waiting.push(folder);
      else {
        reuse!.seen(folder.dir, kept);
        take(kept.items, true);
        walk(kept.folders);
      }
    }
  };

  walk([ROOT]);
  sendFolders();
  if (foldersInFlight === 0 && toRead.length > 0) sendReads();
  // `running` grows while it is awaited: every job started by a finished one is awaited too.
  for (let i = 0; i < running.length; i++) await running[i];
}

/**
 * The batches `list` hands its sink, as an async iterable: each as soon as its job finishes, and
 * the failure, if any, thrown by the next step. Ending the iteration early stops new jobs.
 */
export async function* asBatches(list: (sink: ListingSink) => Promise<void>): AsyncGenerator<SkillFileListing[], void, undefined> {
  const ready: SkillFileListing[][] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failed: { error: unknown } | undefined;
  const sink: ListingSink = {
    take(items) {
      ready.push(items);
      wake?.();
    },
  };
  list(sink).then(
    () => {
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failed = { error };
      wake?.();
    },
  );
  try {
    for (;;) {
      if (failed) throw failed.error;
      if (ready.length > 0) yield ready.shift()!;
      else if (finished) return;
      else {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    }
  } finally {
    sink.stopped = true;
  }
}

/** A walked folder as kept: files a catalog reads by their token alone (`wanted`), so no bytes are held. */
function keptOf({ folder, items, folders }: Walked): KeptFolder {
  const kept = items.map(
    (item): Listed => (item.kind === 'file' && item.token !== undefined ? { path: item.path, kind: 'file', token: item.token, wanted: true } : item),
  );
  return { inSkill: folder.inSkill, items: kept, folders };
}
