/**
 * Verified file bytes by digest, least recently used first out, bounded by total bytes. The same
 * digest is the same bytes, so an entry stays valid across reloads and for every file (and skill)
 * that holds those bytes.
 */
export class BytesCache {
  readonly #limit: number;
  readonly #items = new Map<string, { bytes: Uint8Array; cost: number }>();
  #bytes = 0;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** Memory held now, in bytes: the files' bytes and their wire encodings. */
  get size(): number {
    return this.#bytes;
  }

  /** Whether bytes of this length may be kept at all: one file takes at most an eighth of the cache. */
  admits(byteLength: number): boolean {
    return this.#limit > 0 && byteLength <= this.#limit / 8;
  }

  get(digest: string): Uint8Array | undefined {
    const item = this.#items.get(digest);
    if (item === undefined) return undefined;
    // Most recently used last.
    this.#items.delete(digest);
    this.#items.set(digest, item);
    return item.bytes;
  }

  /** The bytes under `digest` and the memory they are counted as, without making them recently used. */
  peek(digest: string): { bytes: Uint8Array; cost: number } | undefined {
    return this.#items.get(digest);
  }

  /**
   * Keep `bytes` (which the caller gives up, and nobody may change) under `digest`, counted as
   * `cost` bytes of memory (default their length; more when an encoding lives as long as they
   * do), evicting the least recently used.
   */
  set(digest: string, bytes: Uint8Array, cost = bytes.byteLength): void {
    if (!this.admits(bytes.byteLength) || this.#items.has(digest)) return;
    this.#items.set(digest, { bytes, cost });
    this.#bytes += cost;
    for (const [oldest, old] of this.#items) {
      if (this.#bytes <= this.#limit) break;
      this.#items.delete(oldest);
      this.#bytes -= old.cost;
    }
  }

  clear(): void {
    this.#items.clear();
    this.#bytes = 0;
  }
}
