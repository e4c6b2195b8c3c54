/**
 * The whole-tree members of a folder storage (`listAll`, `listAllBatches`, `treeToken`), and what
 * they keep from one listing to the next: with a watch on, the change feed; without, the last
 * listing's record of each folder (`LastSeen`); either way, the reads whose bytes their tokens
 * cannot prove yet (`UnsettledReads`).
 */
import path from 'node:path';
import type { ListAllOptions, SkillFileListing } from '@skillmount/core/storage-kit';
import { realRootOf } from './confine.js';
import { storageError } from './errors.js';
import type { ChangeFeed, FeedListing } from './feed.js';
import { verifyAll } from './tree/check-jobs.js';
import { LastSeen } from './tree/last-seen.js';
import { asBatches, listInto, type ListingContext, type ListingSink } from './tree/list.js';
import { inlineRunner, TreeJobError, type TreeRunner, WorkerPool, withFallback } from './tree/runner.js';
import { settleLine } from './tree/settled.js';
import { UnsettledReads } from './tree/unsettled.js';
import { rootIdOf } from './watcher.js';

export interface WholeTreeSettings {
  workerThreads: boolean;
  fullWalkMs: number;
  /** The change feed, undefined with `fullWalkMs: 0`; used while it is active (a watch is on). */
  feed: ChangeFeed | undefined;
  /** The root's real path, looked up again (it may have been re-pointed); a `StorageError` when it cannot be. */
  listedRoot(): Promise<string>;
}

export interface WholeTree {
  listAll(options?: ListAllOptions): Promise<SkillFileListing[]>;
  listAllBatches(options?: ListAllOptions): AsyncIterable<SkillFileListing[]>;
  treeToken(): Promise<string | undefined>;
}

/** The whole-tree members of the folder storage of `absolute` (see the module comment). */
export function wholeTree(absolute: string, { workerThreads, fullWalkMs, feed, listedRoot }: WholeTreeSettings): WholeTree {
  const lastSeen = new LastSeen(fullWalkMs);
  const unsettled = new UnsettledReads();

  /**
   * The whole tree into `sink`. With a watch on, through the change feed: folders no event marked
   * since are taken as kept. Without, folders the last listing saw are checked by their metadata.
   */
  const listWhole = async (root: string, start: number, listOptions: ListAllOptions | undefined, sink: ListingSink, feedListing?: FeedListing) => {
    const seen = feedListing ? undefined : lastSeen.begin(root, start, typeof listOptions?.known === 'function');
    const listing = unsettled.begin();
    const context: ListingContext = { line: settleLine(start), unsettled, listing };
    if (feedListing) context.reuse = feedListing;
    if (seen) context.seen = seen;
    await listTree(absolute, root, workerThreads, listOptions, sink, context);
    if (sink.stopped) return;
    if (seen) lastSeen.end(seen);
    unsettled.end(listing);
  };

  const listAll = async (listOptions?: ListAllOptions): Promise<SkillFileListing[]> => {
    const start = Date.now();
    let listing: FeedListing | undefined;
    const root = await listedRoot();
    try {
      if (feed?.active) listing = feed.begin(await rootIdOf(absolute, root));
    } catch (error) {
      throw storageError('cannot list', '', absolute, error);
    }
    const listed: SkillFileListing[] = [];
    const sink: ListingSink = {
      take: (items) => {
        for (const item of items) listed.push(item);
      },
    };
    await listWhole(root, start, listOptions, sink, listing);
    if (listing) feed!.end(listing);
    return listed;
  };

  // Without a watch: the last listing's record, when every folder and file is still as it saw them
  // and no read of it is in doubt; checking costs an lstat per folder and per file a catalog reads.
  // On threads already running, else here in slices: starting threads costs more than the checks
  // (reloads more than 10 s apart find them ended).
  const seenToken = async (): Promise<string | undefined> => {
    if (unsettled.pending) return undefined;
    const start = Date.now();
    const root = await realRootOf(absolute);
    const tree = lastSeen.tree(root, start);
    if (!tree) return undefined;
    const runner = workerThreads && sharedPool().warm ? runnerOf(true) : inlineRunner;
    return (await verifyAll(root, runner, tree.parts)) ? `seen:${tree.id}` : undefined;
  };

  return {
    listAll,
    listAllBatches(listOptions) {
      // While watched, a listing goes through the change feed, whole: one batch.
      if (feed?.active)
        return (async function* () {
          yield await listAll(listOptions);
        })();
      return asBatches(async (sink) => {
        const start = Date.now();
        await listWhole(await listedRoot(), start, listOptions, sink);
      });
    },
    async treeToken() {
      try {
        return feed?.active ? feed.token(await rootIdOf(absolute)) : await seenToken();
      } catch {
        return undefined; // the root is gone or unreadable: a listing says why
      }
    },
  };
}

/**
 * The whole tree into `sink`, hashed in worker threads where they start, else (or for every job
 * they cannot take) on this thread; what it reuses and records is in `context`.
 */
async function listTree(
  absolute: string,
  root: string,
  workerThreads: boolean,
  listOptions: ListAllOptions | undefined,
  sink: ListingSink,
  context: ListingContext,
): Promise<void> {
  let count = 0;
  const counted: ListingSink = {
    take(items) {
      count += items.length;
      sink.take(items);
    },
    get stopped() {
      return sink.stopped;
    },
  };
  try {
    await listInto(root, runnerOf(workerThreads), listOptions ?? {}, counted, context);
    // A first listing this large is followed by a build of as many records: its threads end now.
    if (workerThreads && listOptions?.known === undefined && count >= LARGE_LISTING) sharedPool().endWhenIdle();
  } catch (error) {
    if (!(error instanceof TreeJobError)) throw error;
    const relative = error.detail.relative ?? '';
    throw storageError(error.detail.action ?? 'cannot list', relative, path.join(absolute, relative), error.detail);
  }
}

/** Entries of a first listing after which the threads end as soon as they are idle (see `WorkerPool.endWhenIdle`). */
const LARGE_LISTING = 20_000;

let pool: WorkerPool | undefined;

/** Worker threads where they start, else (or for every job they cannot take) this thread. */
const runnerOf = (workerThreads: boolean): TreeRunner => (workerThreads ? withFallback(sharedPool(), inlineRunner) : inlineRunner);

/** One pool for the process: folder storages come and go (one per tenant, say), the threads stay few. */
function sharedPool(): WorkerPool {
  pool ??= new WorkerPool(new URL('./tree-worker.js', import.meta.url));
  return pool;
}
