/**
 * Files read while their times were too recent to prove the bytes (see `settled.ts`): an edit that
 * kept the size and landed in the same timestamp tick, just after the read, left the same token.
 * Whoever holds such a token from such a read must not trust it: the next listing that finds the
 * same token reads the file again, whether or not the caller's `known` has it, until a read made
 * once the times are settled shows every earlier read got the same bytes. Kept on the listing
 * thread, per storage; one small record per such file, none once they are settled.
 */
import type { Listed } from './jobs.js';

interface Doubt {
  token: string;
  /** The digest every unsettled read of this token gave, or undefined once two differed. */
  digest: string | undefined;
  /** The last listing that saw the file with this token. */
  seen: number;
}

export class UnsettledReads {
  readonly #doubts = new Map<string, Doubt>();
  #listings = 0;

  /** True while any such read is not confirmed: nothing can be said unchanged until a listing reads it again. */
  get pending(): boolean {
    return this.#doubts.size > 0;
  }

  /** A listing begins: its number, for `doubts`, `read` and `end`. */
  begin(): number {
    return ++this.#listings;
  }

  /**
   * True when the file, listed now with `token`, was read with that token while unsettled and not
   * yet confirmed: read it again, whatever token the caller holds. A different token drops the doubt.
   */
  doubts(path: string, token: string, listing: number): boolean {
    if (this.#doubts.size === 0) return false;
    const doubt = this.#doubts.get(path);
    if (doubt === undefined) return false;
    if (doubt.token !== token) {
      this.#doubts.delete(path);
      return false;
    }
    doubt.seen = Math.max(doubt.seen, listing);
    return true;
  }

  /** A file read by this listing: a doubt recorded, confirmed, or left for the next listing. */
  read(item: Listed, listing: number): void {
    const { path, token, digest } = item;
    if (token === undefined) return;
    const doubt = this.#doubts.get(path);
    if (doubt !== undefined && doubt.token !== token) this.#doubts.delete(path);
    if (item.unsettled) {
      if (doubt === undefined || doubt.token !== token) this.#doubts.set(path, { token, digest, seen: listing });
      else {
        if (doubt.digest !== digest) doubt.digest = undefined;
        doubt.seen = Math.max(doubt.seen, listing);
      }
    } else if (doubt?.token === token) {
      // Settled now: when these are the bytes every unsettled read got, whoever holds the token holds them.
      if (doubt.digest === digest) this.#doubts.delete(path);
      else doubt.seen = Math.max(doubt.seen, listing);
    }
  }

  /** A listing of the whole tree succeeded: doubts about files it did not find (gone, or no longer read) go. */
  end(listing: number): void {
    for (const [path, doubt] of this.#doubts) if (doubt.seen < listing) this.#doubts.delete(path);
  }
}
