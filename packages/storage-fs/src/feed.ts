/**
 * The change feed: what the watcher's events say changed since the last listing. While a watch is
 * on, the storage keeps each folder as the last listing saw it; an event marks its parent folder to
 * be listed again (and the entry itself with everything below it, in case it is a folder created,
 * renamed or removed), and the next `listAll` lists only the marked folders and what is new below
 * them. Every event moves the tree token on, so a reload with no event since lists nothing.
 *
 * Order matters, as the token is read before listing: marks are dropped only once a listing that
 * began after them has succeeded, and a mark made while a listing runs stays for the next one.
 * Anything that makes the events untrustworthy (no watcher, a watcher error, the root itself
 * changed) turns the feed off: no token, and listings walk everything, as without a watch.
 */
import { isPlainSegment } from '@skillmount/core/storage-kit';
import type { Folder } from './tree/jobs.js';
import type { KeptFolder, Reuse } from './tree/list.js';

// Per process: a new watcher never hands out a token an earlier one gave.
let lastEpoch = 0;

/** One listing's view of the feed: what it may reuse, and what it saw for the next. */
export interface FeedListing extends Reuse {
  readonly epoch: number;
  /** The event count when it began: marks up to here are covered by it. */
  readonly seq: number;
  readonly next: Map<string, KeptFolder>;
}

export class ChangeFeed {
  /** Undefined while the events cannot be trusted (no watcher, or one that failed). */
  #epoch: number | undefined;
  /** The real root path and its device and inode, as the watcher started on it. */
  #rootId = '';
  #events = 0;
  /** Folders to list again, and paths to list again with everything below them: each with the event that marked it. */
  #folders = new Map<string, number>();
  #subtrees = new Map<string, number>();
  /** Set when the next listing must walk everything: the event that asked. */
  #whole: number | undefined;
  #kept: Map<string, KeptFolder> | undefined;
  #keptSeq = -1;

  /** True while a trusted watcher runs: only then are tokens given and listings kept. */
  get active(): boolean {
    return this.#epoch !== undefined;
  }

  /** A watcher started on the root (`rootId`): nothing kept yet, so the first listing walks everything. */
  start(rootId: string): void {
    this.#reset();
    this.#epoch = ++lastEpoch;
    this.#rootId = rootId;
    this.#whole = 0;
  }

  /** The watcher ended, failed, or the root changed: no token, full walks, nothing kept. */
  stop(): void {
    this.#reset();
  }

  /** One event from the watcher; `filename` is relative to the root, as `fs.watch` gives it. */
  event(filename: string | null | undefined, separator: string): void {
    if (this.#epoch === undefined) return;
    const seq = ++this.#events;
    if (filename === '' || filename === '.') {
      this.stop(); // the root itself: renamed, removed or replaced
      return;
    }
    const segments = typeof filename === 'string' ? filename.split(separator).join('/').split('/') : [];
    // No name, or one that is no path of this storage: nothing says which folder changed.
    if (segments.length === 0 || !segments.every(isPlainSegment)) {
      this.#whole = seq;
      return;
    }
    const relative = segments.join('/');
    this.#folders.set(segments.slice(0, -1).join('/'), seq);
    this.#subtrees.set(relative, seq);
  }

  /** The next listing walks everything (the periodic full walk). */
  walkWhole(): void {
    if (this.#epoch === undefined) return;
    this.#whole = ++this.#events;
  }

  /**
   * The tree token: the watcher's epoch and event count, undefined unless a trusted watcher runs.
   * A listing asked for by the feed itself (at the start, after an event naming no path, the
   * periodic walk) walks everything, and the count has moved on, so a reload lists.
   */
  token(rootId: string): string | undefined {
    if (this.#epoch === undefined) return undefined;
    if (rootId !== this.#rootId) return this.#reset(); // re-pointed or replaced: the watcher watches the old one
    return `${this.#epoch}:${this.#events}`;
  }

  /**
   * A listing of the root (`rootId`) begins: undefined when nothing is to be kept (no trusted watcher),
   * else what it may reuse (nothing when it must walk everything), collecting what it sees.
   */
  begin(rootId: string): FeedListing | undefined {
    if (this.#epoch === undefined) return undefined;
    if (rootId !== this.#rootId) return this.#reset();
    const kept = this.#whole === undefined ? this.#kept : undefined;
    // The marks as they are now, with the kept folders of the same moment: a listing that ends meanwhile drops marks, not this one's view.
    const folders = new Set(this.#folders.keys());
    const subtrees = new Set(this.#subtrees.keys());
    const marked = (dir: string) => folders.has(dir) || this.#folders.has(dir);
    const under = (dir: string) => {
      for (let end = dir.indexOf('/'); ; end = dir.indexOf('/', end + 1)) {
        const prefix = end < 0 ? dir : dir.slice(0, end);
        if (subtrees.has(prefix) || this.#subtrees.has(prefix)) return true;
        if (end < 0) return false;
      }
    };
    const next = new Map<string, KeptFolder>();
    return {
      epoch: this.#epoch,
      seq: this.#events,
      next,
      kept: ({ dir, inSkill }: Folder) => {
        const folder = kept?.get(dir);
        if (!folder || folder.inSkill !== inSkill || marked(dir) || (dir !== '' && under(dir))) return undefined;
        return folder;
      },
      seen: (dir, folder) => void next.set(dir, folder),
    };
  }

  /** A listing succeeded: what it saw is kept, and the marks it covered are dropped, unless a later one got there first. */
  end(listing: FeedListing): void {
    if (listing.epoch !== this.#epoch || listing.seq < this.#keptSeq) return;
    this.#kept = listing.next;
    this.#keptSeq = listing.seq;
    for (const marks of [this.#folders, this.#subtrees]) for (const [path, seq] of marks) if (seq <= listing.seq) marks.delete(path);
    if (this.#whole !== undefined && this.#whole <= listing.seq) this.#whole = undefined;
  }

  #reset(): undefined {
    this.#epoch = undefined;
    this.#rootId = '';
    this.#events = 0;
    this.#folders.clear();
    this.#subtrees.clear();
    this.#whole = undefined;
    this.#kept = undefined;
    this.#keptSeq = -1;
    return undefined;
  }
}
