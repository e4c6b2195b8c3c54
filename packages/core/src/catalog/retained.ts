/**
 * Bytes of earlier generations of a catalog, kept for a while after each reload so a client still
 * holding an entry from before it can read the exact bytes that entry lists (naming its digest).
 * Only bytes the catalog had in memory when it reloaded: the storage has changed by then.
 */
export class RetainedBytes {
  readonly #windowMs: number;
  readonly #limit: number;
  /** By path and digest; oldest first (every item gets the same window, so expiry follows order). */
  readonly #items = new Map<string, { bytes: Uint8Array; cost: number; until: number }>();
  #bytes = 0;

  constructor(windowMs: number, limitBytes: number) {
    this.#windowMs = windowMs;
    this.#limit = limitBytes;
  }

  /** Memory held now, in bytes (the files' bytes and their wire encodings, as the byte cache counts them). */
  get size(): number {
    return this.#bytes;
  }

  /** When the oldest item expires (epoch milliseconds), or undefined when none is held. */
  get nextExpiry(): number | undefined {
    for (const item of this.#items.values()) return item.until;
    return undefined;
  }

  /** Keep `bytes`, the published content of `path` under `digest`, until `now` plus the window; the oldest go first past the budget. */
  keep(path: string, digest: string, bytes: Uint8Array, cost: number, now: number): void {
    if (cost > this.#limit) return;
    const key = keyOf(path, digest);
    const old = this.#items.get(key);
    if (old) {
      this.#items.delete(key);
      this.#bytes -= old.cost;
    }
    this.#items.set(key, { bytes, cost, until: now + this.#windowMs });
    this.#bytes += cost;
    for (const [oldest, item] of this.#items) {
      if (this.#bytes <= this.#limit) break;
      this.#items.delete(oldest);
      this.#bytes -= item.cost;
    }
  }

  /** The bytes `path` had under `digest`, while the window lasts. */
  get(path: string, digest: string, now: number): Uint8Array | undefined {
    const item = this.#items.get(keyOf(path, digest));
    return item !== undefined && item.until > now ? item.bytes : undefined;
  }

  /** Drop what the window no longer covers. */
  sweep(now: number): void {
    for (const [key, item] of this.#items) {
      if (item.until > now) break;
      this.#items.delete(key);
      this.#bytes -= item.cost;
    }
  }

  clear(): void {
    this.#items.clear();
    this.#bytes = 0;
  }
}

const keyOf = (path: string, digest: string) => `${digest} ${path}`;
