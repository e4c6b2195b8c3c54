/**
 * Built archives' bytes, kept for every tenant in one bounded memory, evicted fairly: when the
 * memory is full, the tenant that holds the most gives up its least recently used archive, so a
 * tenant that downloads many archives cannot push a quiet tenant's few out.
 */

/** Memory for built archives, over every tenant. */
export const ARCHIVE_CACHE_BYTES = 64 * 1024 * 1024;
/** One archive larger than this (8 MiB) is not kept: it is built again for each download. */
export const LARGEST_KEPT = ARCHIVE_CACHE_BYTES / 8;

/** One tenant's kept archives, least recently used first, and the bytes they hold. */
interface Holder {
  archives: Map<string, Uint8Array>;
  held: number;
}

export class KeptArchives {
  readonly #holders = new Map<number, Holder>();
  #held = 0;

  readonly capacity: number;

  constructor(capacity = ARCHIVE_CACHE_BYTES) {
    this.capacity = capacity;
  }

  /** Bytes kept, over every tenant. */
  get size(): number {
    return this.#held;
  }

  /** Bytes `tenant` holds. */
  heldBy(tenant: number): number {
    return this.#holders.get(tenant)?.held ?? 0;
  }

  /** `tenant`'s archive under `key`, now its most recently used; undefined when not kept. */
  get(tenant: number, key: string): Uint8Array | undefined {
    const archives = this.#holders.get(tenant)?.archives;
    const bytes = archives?.get(key);
    if (bytes === undefined) return undefined;
    archives!.delete(key);
    archives!.set(key, bytes);
    return bytes;
  }

  /** Keep `bytes` for `tenant` (unless too large), then evict, largest holder first, until within capacity. */
  keep(tenant: number, key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > LARGEST_KEPT) return;
    let holder = this.#holders.get(tenant);
    if (!holder) {
      holder = { archives: new Map(), held: 0 };
      this.#holders.set(tenant, holder);
    }
    if (holder.archives.has(key)) return;
    holder.archives.set(key, bytes);
    holder.held += bytes.byteLength;
    this.#held += bytes.byteLength;
    while (this.#held > this.capacity) this.#evictFromLargest();
  }

  /** Drop everything `tenant` holds (its catalog is gone). */
  forget(tenant: number): void {
    const holder = this.#holders.get(tenant);
    if (!holder) return;
    this.#held -= holder.held;
    this.#holders.delete(tenant);
  }

  #evictFromLargest(): void {
    let largest: [number, Holder] | undefined;
    for (const entry of this.#holders) if (!largest || entry[1].held > largest[1].held) largest = entry;
    if (!largest) return;
    const [tenant, holder] = largest;
    const [oldest, bytes] = holder.archives.entries().next().value!;
    holder.archives.delete(oldest);
    holder.held -= bytes.byteLength;
    this.#held -= bytes.byteLength;
    if (holder.archives.size === 0) this.#holders.delete(tenant);
  }
}
