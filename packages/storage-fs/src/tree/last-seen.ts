/**
 * Without a watch: what the last listing saw of each folder, so that the next listing with `known`
 * (a reload) checks each folder by its metadata (see `check.ts`) instead of opening and reading it,
 * and `treeToken` can tell that nothing changed without a listing. Every folder is listed again
 * at least every `fullWalkMs`: the bound on how long a name added to a folder goes unseen on a file
 * system that does not move a folder's times when its names change. One small record per folder
 * (its stamp, names and the sum of its files' tokens), none per file.
 */
import type { FolderCheck } from './check.js';
import { partsOf } from './check-jobs.js';
import type { Walked } from './jobs.js';

/** One listing's view: the folders it may check (undefined: list them all), and what it saw, for the next. */
export interface SeenListing {
  readonly root: string;
  /** The records to check, in parts (see `partsOf`). */
  readonly checks: readonly string[] | undefined;
  /** The record `checks` are from. */
  readonly base: number;
  /** When the listing every folder of `next` goes back to last listed every folder. */
  readonly walkedAt: number;
  /** The record of every folder it saw (see `recordOf`). */
  readonly next: string[];
  /** Set once it saw anything not as `checks` recorded it (and from the start without checks). */
  changed: boolean;
  /** Cleared once a folder it saw could not be recorded (its times too recent, or it went away meanwhile). */
  complete: boolean;
}

/** The record a tree token is checked against: every folder of the last listing. */
export interface SeenTree {
  /** Moves on with every listing that saw anything else: the same id, the same names, stamps and tokens. */
  readonly id: number;
  /** Every folder's record, in parts (see `partsOf`). */
  readonly parts: readonly string[];
}

export class LastSeen {
  readonly #fullWalkMs: number;
  #root = '';
  // Kept as strings: a few per listing, however many folders (see `recordsOf`).
  #parts: readonly string[] | undefined;
  #walkedAt = -Infinity;
  #id = 0;
  #ids = 0;
  #complete = false;

  constructor(fullWalkMs: number) {
    this.#fullWalkMs = fullWalkMs;
  }

  /**
   * A listing of `root` (its real path) begins at `start`: undefined when nothing is kept
   * (`fullWalkMs` 0), else what it may check (only with `known`, as otherwise every file a catalog
   * reads is read anyway; and not once the last full walk is `fullWalkMs` old).
   */
  begin(root: string, start: number, known: boolean): SeenListing | undefined {
    if (this.#fullWalkMs === 0) return undefined;
    const next: string[] = [];
    if (known && this.#fresh(root, start)) return { root, checks: this.#parts, base: this.#id, walkedAt: this.#walkedAt, next, changed: false, complete: true };
    return { root, checks: undefined, base: this.#id, walkedAt: start, next, changed: true, complete: true };
  }

  /** A listing of the whole tree succeeded: what it saw is what the next one checks. */
  end(listing: SeenListing): void {
    this.#root = listing.root;
    this.#parts = partsOf(listing.next);
    this.#walkedAt = listing.walkedAt;
    this.#id = listing.changed ? ++this.#ids : listing.base;
    this.#complete = listing.complete;
  }

  /** What a tree token at `now` is checked against: undefined unless every folder of `root` was recorded, and not too long ago. */
  tree(root: string, now: number): SeenTree | undefined {
    return this.#complete && this.#fresh(root, now) ? { id: this.#id, parts: this.#parts! } : undefined;
  }

  #fresh(root: string, now: number): boolean {
    return this.#parts !== undefined && this.#root === root && now - this.#walkedAt < this.#fullWalkMs;
  }
}

const letter = { file: 'f', directory: 'd', unsupported: 'u' } as const;

/** A folder just listed, as the next listing checks it; undefined when its stamp was not settled. */
export function checkOf({ folder, items, folders, stamp, sum }: Walked): FolderCheck | undefined {
  if (stamp === undefined || sum === undefined) return undefined;
  const skip = folder.dir === '' ? 0 : folder.dir.length + 1;
  const entries: string[] = [];
  for (const item of items) {
    if (item.path === folder.dir) continue; // the folder's own entry
    const kind = item.kind === 'file' && item.token !== undefined ? 'w' : letter[item.kind];
    entries.push(kind + item.path.slice(skip));
  }
  for (const sub of folders) entries.push((sub.inSkill ? 'S' : 's') + sub.dir.slice(skip));
  return { dir: folder.dir, inSkill: folder.inSkill, stamp, entries: entries.join('/'), sum };
}
