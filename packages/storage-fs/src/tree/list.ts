import { isSkillMdPath, type ListAllOptions, type SkillFileListing } from '@skillmount/core/storage-kit';
import { ROOT, type Folder, type Listed } from './jobs.js';
import type { FileToRead, TreeRunner } from './runner.js';

// Per job: enough to make a message worth its cost, few enough to keep every thread busy.
const FOLDERS_PER_JOB = 16;
const FILES_PER_JOB = 64;

/** Where a listing's items go, a batch per finished job; `stopped` once nobody wants more. */
export interface ListingSink {
  take(items: SkillFileListing[]): void;
  stopped?: boolean;
}

/**
 * The whole tree under `root` as a flat listing, handed to `sink` a batch at a time as jobs
 * finish. Files a catalog will read (inside a folder holding a SKILL.md) come with their size and
 * digest, and SKILL.md files with their bytes. A
 * first listing reads them while walking; with `known` (a reload), the walk only stats them, and
 * just the files whose token changed are read, as separate jobs.
 */
export async function listInto(root: string, runner: TreeRunner, options: ListAllOptions, sink: ListingSink): Promise<void> {
  const known = typeof options.known === 'function' ? options.known : undefined;
  const running: Promise<void>[] = [];
  let foldersInFlight = 0;
  let toRead: FileToRead[] = [];

  const track = (work: Promise<void>) => {
    work.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled meanwhile
    running.push(work);
  };
  const add = (items: readonly Listed[]) => {
    const batch: SkillFileListing[] = [];
    for (const item of items) batch.push(item.wanted ? { path: item.path, kind: item.kind, token: item.token! } : item);
    if (batch.length > 0) sink.take(batch);
  };
  const sendReads = () => {
    const files = toRead;
    toRead = [];
    if (!sink.stopped) track(runner.files(root, files).then(add));
  };
  const take = (items: readonly Listed[]) => {
    const listed: Listed[] = [];
    for (const item of items) {
      if (!item.wanted || known?.(item.path) === item.token) {
        listed.push(item);
        continue;
      }
      toRead.push({ path: item.path, content: isSkillMdPath(item.path) });
      if (toRead.length === FILES_PER_JOB) sendReads();
    }
    add(listed);
  };
  const walk = (folders: readonly Folder[]) => {
    if (sink.stopped) return;
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
