import { StorageError, type SkillFileListing } from '@skillmount/core/storage-kit';

/** What a listing says about every path, to compare two polls: kind and change token. */
export type ListingState = Map<string, string>;

export function stateOf(listing: readonly SkillFileListing[]): ListingState {
  return new Map(listing.map((item) => [item.path, `${item.kind}:${item.token ?? ''}`]));
}

export function sameState(a: ListingState, b: ListingState): boolean {
  if (a.size !== b.size) return false;
  for (const [path, value] of a) if (b.get(path) !== value) return false;
  return true;
}

/** A listing's state, and the tree token it is current as of (undefined: none). */
export interface Baseline {
  state: ListingState;
  token: string | undefined;
}

export interface PollOptions {
  intervalMs: number;
  /** The listing to compare the first poll with (the catalog's own load), when there is one. */
  baseline: Baseline | undefined;
  /** The tree token, asked before each listing: a poll that gets the token of its last listing again lists nothing. */
  token(): Promise<string | undefined>;
  list(): Promise<SkillFileListing[]>;
  onChange(): void;
  onError(error: StorageError): void;
}

/**
 * Every `intervalMs`, ask for the tree token and, unless it is the one the previous listing was
 * made under, list and call `onChange` when any path or token differs from the previous listing.
 * Polls never overlap; a failed poll is reported and the next one runs on schedule. The timer
 * does not keep the process alive. Returns a function that stops polling.
 */
export function poll(options: PollOptions): () => void {
  let previous = options.baseline;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const tick = async () => {
    let changed = false;
    try {
      // Read before the listing, so a change made while listing shows in the next token.
      const token = await options.token();
      if (token === undefined || previous === undefined || token !== previous.token) {
        const state = stateOf(await options.list());
        changed = previous !== undefined && !sameState(previous.state, state);
        previous = { state, token };
      }
    } catch (error) {
      if (!stopped) options.onError(error instanceof StorageError ? error : new StorageError(String((error as Error)?.message ?? error), '', { cause: error }));
    }
    if (stopped) return;
    schedule();
    if (changed) options.onChange();
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, options.intervalMs);
    timer.unref();
  };

  // Without a baseline, take one now, so a change made before the first interval is seen.
  if (previous === undefined) {
    void tick();
  } else {
    schedule();
  }
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
