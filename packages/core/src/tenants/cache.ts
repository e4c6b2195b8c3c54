/**
 * A bounded, keyed cache of loaded values: one load per key even under concurrent first uses,
 * least-recently-used eviction beyond `max`, idle eviction after `idleMs`, and freeing deferred
 * until the uses in flight are done, so nothing is closed under a running request. Only loaded
 * values the `admit` hook accepts count towards `max`: a key that loads to nothing worth keeping
 * (a tenant with no storage behind it) never pushes a kept value out.
 */
import type { EvictionReason } from '../telemetry/channels.js';

export interface TenantCacheHooks<V> {
  load(key: string): Promise<V>;
  /**
   * Keep this freshly loaded value? When false it serves the uses that were waiting for it, is
   * freed after them, and the next use loads again. Default: keep every value.
   */
  admit?(key: string, value: V): boolean;
  /** Called once per loaded value that leaves the cache. */
  free(key: string, value: V): void | Promise<void>;
  /** A free that threw or rejected. */
  freeFailed(key: string, error: unknown): void;
  /** A loaded value was admitted: it now counts towards `max` (`admitted` says how many do). */
  kept?(key: string): void;
  /** An admitted value left the cache, and why. */
  left?(key: string, reason: EvictionReason): void;
}

interface Slot<V> {
  readonly key: string;
  readonly promise: Promise<V>;
  value?: V;
  settled: boolean;
  /** Uses in flight: a slot is freed only when none is left. */
  active: number;
  /** Loaded and admitted: counts towards `max`. Loading slots do not, so a load never evicts before it is known to be kept. */
  admitted: boolean;
  lastUsed: number;
  evicted: boolean;
  freed: boolean;
}

export class TenantCache<V> {
  readonly #slots = new Map<string, Slot<V>>(); // in least-recently-used-first order
  readonly #hooks: TenantCacheHooks<V>;
  readonly #max: number;
  readonly #idleMs: number;
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  /** Frees under way, so `close()` can wait for them. */
  readonly #freeing = new Set<Promise<void>>();

  constructor(hooks: TenantCacheHooks<V>, max: number, idleMs: number) {
    this.#hooks = hooks;
    this.#max = max;
    this.#idleMs = idleMs;
  }

  /** Keys in memory, least recently used first. */
  get keys(): string[] {
    return [...this.#slots.keys()];
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Run `fn` with the value of `key`, loading it first when needed; the value stays alive until `fn` settles. */
  async use<T>(key: string, fn: (value: V) => T | Promise<T>): Promise<T> {
    const slot = this.#acquire(key);
    try {
      return await fn(await slot.promise);
    } finally {
      this.#release(slot);
    }
  }

  /** Run `fn` with the value of `key` only if it is in memory; `undefined` otherwise (or when its load fails). */
  async ifLoaded<T>(key: string, fn: (value: V) => T | Promise<T>): Promise<T | undefined> {
    if (!this.#slots.has(key)) return undefined;
    const slot = this.#acquire(key);
    try {
      let value: V;
      try {
        value = await slot.promise;
      } catch {
        return undefined;
      }
      return await fn(value);
    } finally {
      this.#release(slot);
    }
  }

  /**
   * Load `key` afresh and swap the new value in once it has loaded; the old one is then evicted.
   * On failure the old value stays and the promise rejects.
   */
  async replace(key: string): Promise<{ before: V | undefined; after: V }> {
    const old = this.#slots.get(key);
    const before = old?.settled ? old.value : undefined;
    const fresh = this.#newSlot(key);
    fresh.active++;
    try {
      const after = await fresh.promise;
      if (this.#closed) {
        fresh.evicted = true;
      } else {
        // Whatever serves the key now (the old value, or one loaded meanwhile) makes way.
        const current = this.#slots.get(key);
        if (current) this.#evict(current, 'reloaded');
        // A value not admitted was marked evicted when it loaded: it is freed once released below.
        if (fresh.admitted) {
          this.#slots.set(key, fresh);
          this.#hooks.kept?.(key);
          this.#startSweeper();
          this.#enforceMax(fresh);
        }
      }
      return { before, after };
    } finally {
      this.#release(fresh);
    }
  }

  /** Take `key` out of memory; its value is freed once its uses in flight finish. */
  evict(key: string): void {
    const slot = this.#slots.get(key);
    if (slot) this.#evict(slot, 'evicted');
  }

  /** Evict everything, stop the idle timer and wait for the frees; later uses throw. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopSweeper();
    const slots = [...this.#slots.values()];
    for (const slot of slots) this.#evict(slot, 'closed');
    await Promise.allSettled(slots.map((slot) => slot.promise));
    // Values loaded by now are being freed (those still in use are freed when their requests end).
    await Promise.allSettled([...this.#freeing]);
  }

  #acquire(key: string): Slot<V> {
    if (this.#closed) throw new Error('skillmount: the tenant catalogs are closed');
    let slot = this.#slots.get(key);
    if (slot) {
      // Most recently used last.
      this.#slots.delete(key);
      this.#slots.set(key, slot);
    } else {
      slot = this.#newSlot(key);
      this.#slots.set(key, slot);
      this.#startSweeper();
    }
    slot.active++;
    slot.lastUsed = Date.now();
    return slot;
  }

  #release(slot: Slot<V>): void {
    slot.active--;
    slot.lastUsed = Date.now();
    if (slot.evicted) this.#freeWhenIdle(slot);
  }

  #newSlot(key: string): Slot<V> {
    const promise = Promise.resolve().then(() => this.#hooks.load(key));
    const slot: Slot<V> = { key, promise, settled: false, active: 0, admitted: false, lastUsed: Date.now(), evicted: false, freed: false };
    promise.then(
      (value) => {
        slot.value = value;
        slot.settled = true;
        if (!slot.evicted && this.#hooks.admit?.(key, value) === false) {
          // Not kept: it answers the uses waiting for it and is freed after them.
          if (this.#slots.get(key) === slot) this.#slots.delete(key);
          slot.evicted = true;
          this.#stopSweeperWhenEmpty();
        } else if (!slot.evicted) {
          slot.admitted = true;
          // A reload's value is kept once it takes the key's place (replace()).
          if (this.#slots.get(key) === slot) {
            this.#hooks.kept?.(key);
            this.#enforceMax(slot);
          }
        }
        if (slot.evicted) this.#freeWhenIdle(slot);
      },
      () => {
        slot.settled = true;
        // A failed load is not kept: the next use loads again.
        if (this.#slots.get(key) === slot) this.#slots.delete(key);
        this.#stopSweeperWhenEmpty();
      },
    );
    return slot;
  }

  /** Evict the least recently used admitted values beyond `max`, never `keep`. */
  #enforceMax(keep: Slot<V>): void {
    let admitted = this.admitted;
    for (const slot of [...this.#slots.values()]) {
      if (admitted <= this.#max) break;
      if (slot === keep || !slot.admitted) continue;
      this.#evict(slot, 'capacity');
      admitted--;
    }
  }

  /** How many values in the cache count towards `max`. */
  get admitted(): number {
    let admitted = 0;
    for (const slot of this.#slots.values()) if (slot.admitted) admitted++;
    return admitted;
  }

  #evict(slot: Slot<V>, reason: EvictionReason): void {
    const held = this.#slots.get(slot.key) === slot;
    if (held) this.#slots.delete(slot.key);
    if (held && slot.admitted && !slot.evicted) this.#hooks.left?.(slot.key, reason);
    slot.evicted = true;
    this.#freeWhenIdle(slot);
    this.#stopSweeperWhenEmpty();
  }

  #freeWhenIdle(slot: Slot<V>): void {
    if (slot.freed || slot.active > 0 || !slot.settled || !('value' in slot)) return;
    slot.freed = true;
    const value = slot.value as V;
    delete slot.value;
    const freeing = Promise.resolve()
      .then(() => this.#hooks.free(slot.key, value))
      .catch((error: unknown) => this.#hooks.freeFailed(slot.key, error))
      .finally(() => this.#freeing.delete(freeing));
    this.#freeing.add(freeing);
  }

  #sweep(): void {
    const cutoff = Date.now() - this.#idleMs;
    for (const slot of [...this.#slots.values()]) {
      if (slot.active === 0 && slot.settled && slot.lastUsed <= cutoff) this.#evict(slot, 'idle');
    }
  }

  #startSweeper(): void {
    if (this.#sweeper || this.#idleMs === Infinity) return;
    // Often enough that a tenant leaves within about 1.5 × idleMs; never keeps the process alive.
    const every = Math.max(10, Math.min(Math.ceil(this.#idleMs / 2), 60_000));
    this.#sweeper = setInterval(() => this.#sweep(), every).unref();
  }

  #stopSweeperWhenEmpty(): void {
    if (this.#slots.size === 0) this.#stopSweeper();
  }

  #stopSweeper(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }
}
