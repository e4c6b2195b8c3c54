/** The catalog of requests without a tenant (or with a refused key): empty, so every URI is unknown to it. */
import { SkillCatalog } from '../catalog/catalog.js';
import { memoryStorage } from '../storage/memory.js';
import type { CatalogOptions } from '../types.js';
import { NO_SKILLS } from './loader.js';

export class NoTenantCatalog {
  readonly #options: CatalogOptions;
  #catalog: Promise<SkillCatalog> | undefined;

  /** `options`: the page size and cache hint of the tenants' catalogs, and where warnings go. */
  constructor(options: CatalogOptions) {
    this.#options = options;
  }

  /** The empty catalog, built on first use. */
  get(): Promise<SkillCatalog> {
    if (this.#catalog) return this.#catalog;
    const onWarning = this.#options.onWarning;
    this.#catalog = SkillCatalog.load(memoryStorage({}), {
      ...this.#options,
      // Empty is what it is meant to be.
      onWarning: (w) => {
        if (w.code !== NO_SKILLS) onWarning?.(w);
      },
    });
    return this.#catalog;
  }

  async close(): Promise<void> {
    (await this.#catalog?.catch(() => undefined))?.close();
  }
}
