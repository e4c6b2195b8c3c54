import { isSkillMdPath, joinPath, type ListAllOptions, type SkillFileListing } from '@skillmount/core/storage-kit';
import { recordOf, type FolderCheck } from './check.js';
import { checkAll, type CheckedFolder } from './check-jobs.js';
import { ROOT, type Folder, type Listed, type Walked } from './jobs.js';
import { checkOf, type SeenListing } from './last-seen.js';
import type { FileToRead, TreeRunner } from './runner.js';
import type { UnsettledReads } from './unsettled.js';

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

/** What a listing works with besides its options. */
export interface ListingContext {
  /** See `settleLine`: taken when the listing began. */
  line: number;
  /** Reads too recent to prove their bytes (see `unsettled.ts`), and this listing's number there. */
  unsettled: UnsettledReads;
  listing: number;
  /** With a watch on: the folders the change feed kept. */
  reuse?: Reuse;
  /** Without a watch: the folders the last listing saw, to check, and what this one sees. */
  seen?: SeenListing;
}

/**
 * The whole tree under `root` as a flat listing, handed to `sink` a batch at a time as jobs
 * finish. Files a catalog will read (inside a folder holding a SKILL.md) come with their size and
 * digest, and SKILL.md files with their bytes. A first listing reads them while walking; with
 * `known` (a reload), the walk only stats them, and just the files whose token changed (or whose
 * last read is in doubt, see `unsettled.ts`) are read, as separate jobs. Folders the change feed
 * kept, or whose check against the last listing found them the same, are not listed again: their
 * files go through the same rule.
 */
export async function listInto(root: string, runner: TreeRunner, options: ListAllOptions, sink: ListingSink, context: ListingContext): Promise<void> {
  const checks = context.seen?.checks;
  const checked = checks && checks.length > 0 ? await checkAll(root, runner, checks, context.line) : undefined;
  if (sink.stopped) return;
  await new TreeListing(root, runner, options, sink, context, checked).run();
}

/** One listing under way: see `listInto`. */
class TreeListing {
  readonly #running: Promise<void>[] = [];
  readonly #known: ((path: string) => string | undefined) | undefined;
  #foldersInFlight = 0;
  readonly #waiting: Folder[] = [];
  #toRead: FileToRead[] = [];

  readonly root: string;
  readonly runner: TreeRunner;
  readonly sink: ListingSink;
  readonly context: ListingContext;
  readonly checked: ReadonlyMap<string, CheckedFolder> | undefined;

  constructor(
    root: string,
    runner: TreeRunner,
    options: ListAllOptions,
    sink: ListingSink,
    context: ListingContext,
    checked: ReadonlyMap<string, CheckedFolder> | undefined,
  ) {
    this.root = root;
    this.runner = runner;
    this.sink = sink;
    this.context = context;
    this.checked = checked;
    this.#known = typeof options.known === 'function' ? options.known : undefined;
  }

  async run(): Promise<void> {
    this.#visit([ROOT]);
    if (this.#foldersInFlight === 0 && this.#toRead.length > 0) this.#sendReads();
    // `running` grows while it is awaited: every job started by a finished one is awaited too.
    for (let i = 0; i < this.#running.length; i++) await this.#running[i];
  }

  #track(work: Promise<void>): void {
    work.catch(() => {}); // awaited in run(); this only keeps an early failure from going unhandled meanwhile
    this.#running.push(work);
  }

  /**
   * Visit folders, and the folders just listed by a job (`walked`): each folder taken from the
   * feed, from its check, or listed by a new job; their subfolders in turn. What they hold goes to
   * the sink as one batch.
   */
  #visit(folders: readonly Folder[], walked: readonly Walked[] = []): void {
    if (this.sink.stopped) return;
    const { reuse, seen } = this.context;
    const batch: SkillFileListing[] = [];
    const queue = [...folders];
    const fresh: Folder[] = [];
    const listed = (one: Walked) => {
      reuse?.seen(one.folder.dir, keptOf(one));
      if (seen) this.#record(seen, checkOf(one), true);
      this.#take(one.items, false, batch);
      for (const folder of one.folders) queue.push(folder);
    };
    for (const one of walked) listed(one);
    for (let i = 0; i < queue.length; i++) {
      const folder = queue[i]!;
      const kept = reuse?.kept(folder);
      const found = kept ? undefined : this.checked?.get(folder.dir);
      if (kept) {
        reuse!.seen(folder.dir, kept);
        this.#take(kept.items, true, batch);
        for (const sub of kept.folders) queue.push(sub);
      } else if (found && found.check.inSkill === folder.inSkill) {
        const { check, result } = found;
        if (typeof result === 'string') this.#takeChecked(check, result, batch, queue);
        else if ('tokens' in result) this.#takeChecked({ ...check, sum: result.sum }, result.tokens, batch, queue);
        else listed(result);
      } else fresh.push(folder);
    }
    if (batch.length > 0) this.sink.take(batch);
    if (seen && fresh.length > 0) seen.changed = true;
    this.#listFresh(fresh);
  }

  /** A folder seen, as the next listing checks it (or nothing to check it by), and whether it differs from its check. */
  #record(seen: SeenListing, check: FolderCheck | undefined, changed: boolean): void {
    if (changed) seen.changed = true;
    if (check) seen.next.push(recordOf(check));
    else seen.complete = false;
  }

  /**
   * Folders nothing kept wait until a thread is free, then go in jobs of a full share each: a job
   * per folder as it is found would cost a round trip between threads for each.
   */
  #listFresh(fresh: readonly Folder[]): void {
    for (const folder of fresh) this.#waiting.push(folder);
    const { parallelism } = this.runner;
    while (this.#waiting.length > 0 && this.#foldersInFlight < parallelism * 2 && !this.sink.stopped) {
      const per = Math.max(1, Math.min(FOLDERS_PER_JOB, Math.ceil(this.#waiting.length / parallelism)));
      this.#foldersInFlight++;
      this.#track(
        this.runner.folders(this.root, this.#waiting.splice(0, per), this.#known === undefined, this.context.line).then((walked) => {
          this.#foldersInFlight--;
          this.#visit([], walked);
          this.#listFresh([]);
          if (this.#foldersInFlight === 0 && this.#toRead.length > 0) this.#sendReads();
        }),
      );
    }
  }

  /** Listed items into `batch`; kept ones are `shared` with the next listing, so the sink gets copies. */
  #take(items: readonly Listed[], shared: boolean, batch: SkillFileListing[]): void {
    for (const item of items) {
      if (item.wanted) this.#want(item.path, item.token!, batch);
      else if (item.digest !== undefined) batch.push(this.#read(item));
      else batch.push(shared ? { ...item } : item);
    }
  }

  /** A file a catalog reads, listed with its token: as it is when the caller holds that token and no doubt hangs over it, else read. */
  #want(path: string, token: string, batch: SkillFileListing[]): void {
    const doubted = this.context.unsettled.doubts(path, token, this.context.listing);
    if (!doubted && this.#known?.(path) === token) {
      batch.push({ path, kind: 'file', token });
      return;
    }
    this.#toRead.push({ path, content: isSkillMdPath(path) });
    if (this.#toRead.length === FILES_PER_JOB) this.#sendReads();
  }

  /** A file read and hashed by this listing: noted when its times were too recent to prove its bytes. */
  #read(item: Listed): Listed {
    this.context.unsettled.read(item, this.context.listing);
    delete item.unsettled;
    return item;
  }

  #sendReads(): void {
    const files = this.#toRead;
    this.#toRead = [];
    if (this.sink.stopped) return;
    this.#track(
      this.runner.files(this.root, files, this.context.line).then((items) => {
        const batch: SkillFileListing[] = [];
        for (const item of items) batch.push(item.digest !== undefined ? this.#read(item) : item);
        if (batch.length > 0) this.sink.take(batch);
      }),
    );
  }

  /** A folder its check found as the last listing saw it: its entries from there, the tokens of its files from the check. */
  #takeChecked(check: FolderCheck, tokens: string, batch: SkillFileListing[], queue: Folder[]): void {
    const { dir, entries } = check;
    if (dir !== '') batch.push({ path: dir, kind: 'directory' });
    let at = 0;
    for (let start = 0; start < entries.length; ) {
      let end = entries.indexOf('/', start);
      if (end < 0) end = entries.length;
      const kind = entries[start];
      const path = joinPath(dir, entries.slice(start + 1, end));
      if (kind === 'w') {
        let next = tokens.indexOf('/', at);
        if (next < 0) next = tokens.length;
        this.#want(path, tokens.slice(at, next), batch);
        at = next + 1;
      } else if (kind === 's' || kind === 'S') queue.push({ dir: path, inSkill: kind === 'S' });
      else batch.push({ path, kind: kind === 'f' ? 'file' : kind === 'd' ? 'directory' : 'unsupported' });
      start = end + 1;
    }
    this.#record(this.context.seen!, check, this.checked?.get(dir)?.check !== check);
  }
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
