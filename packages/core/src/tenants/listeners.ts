/**
 * Who wants to hear about list changes, per tenant. Servers subscribe under the key of the
 * request that connected them, so a change in one tenant's catalog is told to that tenant's
 * sessions only.
 */
export class TenantListeners {
  readonly #byKey = new Map<string, Set<() => void>>();
  /** A fingerprint of the entries of an evicted tenant that still has listeners. */
  readonly #lastSeen = new Map<string, string>();

  add(key: string, listener: () => void): () => void {
    const set = this.#byKey.get(key) ?? new Set<() => void>();
    this.#byKey.set(key, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#byKey.get(key) === set) {
        this.#byKey.delete(key);
        this.#lastSeen.delete(key);
      }
    };
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  notify(key: string): void {
    for (const listener of [...(this.#byKey.get(key) ?? [])]) {
      try {
        listener();
      } catch {
        // One server failing to send must not stop the others.
      }
    }
  }

  /** Remember what a tenant's listeners last saw, when it leaves memory while they stay. */
  remember(key: string, fingerprint: () => string | undefined): void {
    if (this.has(key)) this.#lastSeen.set(key, fingerprint() ?? UNKNOWN);
  }

  /**
   * A tenant was loaded again. If it left memory while servers listened, tell them, unless its
   * entries are known to be the same as when it left. A first load tells nobody: nothing was seen before it.
   */
  reloaded(key: string, fingerprint: () => string | undefined): void {
    const seen = this.#lastSeen.get(key);
    this.#lastSeen.delete(key);
    if (seen === undefined || !this.has(key)) return;
    if (seen !== UNKNOWN && seen === fingerprint()) return;
    this.notify(key);
  }
}

const UNKNOWN = '?';
