/**
 * `skillmount serve --health <path>`: readiness at the path, liveness at `<path>/live`, for load
 * balancers and orchestrators. One state for both frameworks; each app builder mounts the answers.
 *
 * serve loads the catalog before it listens, so there is no "loading" answer: a replica that
 * answers at all has loaded. Readiness is 200 `ready`, 200 `degraded` while the last reload failed
 * (the previous catalog keeps serving) or the storage just reported a failure, and 503 `stopping`
 * from the moment a stop begins. Bodies hold counts, times and a fixed reason, never an error
 * message: the path is public to anyone who can reach the port, and a storage error may name paths
 * or hosts.
 */
import type { ReloadReport, SkillCatalog, SkillWarning } from '@skillmount/core';
import { healthOf } from '@skillmount/core/adapter';
import { UsageError } from './usage.js';

/** What a health path answers: the status code, the headers, and the JSON body (left out for HEAD by the server). */
export interface HealthAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The readiness of a running `serve`: the catalog's own state (core's `healthOf`: ready, or
 * degraded while its last reload failed), storage failures nobody awaited, and the stop.
 */
export class Health {
  /** Undefined with `--tenant-header`: each tenant's catalog loads on its first request. */
  #catalog: SkillCatalog | undefined;
  readonly #startedAt = new Date();
  #storageFailedAt: Date | undefined;
  #stopping = false;
  /** How long a storage failure shows as degraded when no load follows it (an S3 poll that finds nothing new reloads nothing). */
  readonly #storageWindowMs: number;

  constructor(storageWindowMs: number) {
    this.#storageWindowMs = storageWindowMs;
  }

  /** The catalog served, once loaded. */
  serve(catalog: SkillCatalog): void {
    this.#catalog = catalog;
  }

  /** When the catalog served last loaded or reloaded; undefined with `--tenant-header`. */
  get loadedAt(): Date | undefined {
    return this.#catalog?.loadedAt;
  }

  /**
   * The storage reported a failure nobody awaited (a dropped LISTEN connection being retried, a
   * failed S3 poll): degraded until a load succeeds, or until the window passes without another.
   */
  storageFailed(): void {
    this.#storageFailedAt = new Date();
  }

  /** A stop has begun: readiness answers 503 from now on. */
  stopping(): void {
    this.#stopping = true;
  }

  /** The readiness answer. */
  ready(): HealthAnswer {
    if (this.#stopping) return answer(503, { status: 'stopping' }, true);
    const catalog = this.#catalog;
    const health = catalog ? healthOf(catalog) : undefined;
    const served = health ? { skills: health.skills, loadedAt: health.loadedAt } : { tenants: true, loadedAt: this.#startedAt.toISOString() };
    if (health?.status === 'degraded') {
      return answer(200, { status: 'degraded', ...served, reason: health.reason, code: health.code, failedAt: health.failedAt });
    }
    const storage = this.#storageFailedAt;
    const since = catalog?.loadedAt ?? this.#startedAt;
    if (storage !== undefined && storage >= since && Date.now() - storage.getTime() < this.#storageWindowMs) {
      return answer(200, {
        status: 'degraded',
        ...served,
        reason: 'the storage reported a failure; serving the last catalog',
        code: 'storage-failed',
        failedAt: storage.toISOString(),
      });
    }
    return answer(200, { status: 'ready', ...served });
  }

  /** The liveness answer: 200 whenever the process answers, stopping included. */
  live(): HealthAnswer {
    return answer(200, { status: this.#stopping ? 'stopping' : 'live' }, this.#stopping);
  }
}

function answer(status: number, body: object, close = false): HealthAnswer {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  };
  // While stopping, the connection is not kept for another request.
  if (close) headers.connection = 'close';
  return { status, headers, body: text };
}

/** The two paths of `--health <path>`: readiness at the path, liveness at `<path>/live`. */
export interface HealthPaths {
  ready: string;
  live: string;
}

/**
 * `--health <path>` checked against the MCP path: undefined when the flag is absent.
 * @throws UsageError when the path does not start with "/", is given twice, or collides with the MCP path or /.well-known/.
 */
export function healthPaths(values: string[] | undefined, mcpPath: string): HealthPaths | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw new UsageError(`--health is given ${values.length} times (${values.join(', ')}): give it once, e.g. --health /healthz`);
  const ready = values[0]!;
  if (!/^\/[^?#\s]*$/.test(ready)) throw new UsageError(`--health must be a path starting with "/", without "?", "#" or spaces, e.g. /healthz; got "${ready}"`);
  const live = `${ready.replace(/\/+$/, '')}/live`;
  const mcp = mcpPath.replace(/\/+$/, '');
  for (const at of [ready, live]) {
    const trimmed = at.replace(/\/+$/, '');
    if (trimmed === mcp || trimmed.startsWith(`${mcp}/`)) {
      throw new UsageError(`--health ${ready} answers at ${at}, which collides with the MCP path ${mcpPath}: pick a path outside it, e.g. --health /healthz`);
    }
    if (trimmed === '/.well-known' || trimmed.startsWith('/.well-known/')) {
      throw new UsageError(`--health must not be under /.well-known/, which is for published metadata; got "${ready}": use e.g. --health /healthz`);
    }
  }
  return { ready, live };
}

/**
 * Reload `catalog` whenever its storage reports a change, as `catalog.watch()` does (the catalog
 * keeps the state readiness reads). A failed reload is warned about as `reload-failed`, as
 * `catalog.watch()` words it; the previous catalog keeps serving. Each reload that succeeds is
 * reported with what changed, how long it took, and whether the one before it had failed.
 * Returns the stop function.
 */
export function watchReloads(
  catalog: SkillCatalog,
  report: { warn: (warning: SkillWarning) => void; reloaded: (report: ReloadReport, skills: number, recovered: boolean, ms: number) => void },
): () => void {
  const storage = catalog.storage;
  if (typeof storage.watch !== 'function') throw new Error('skillmount: this storage cannot be watched for changes; pass --no-watch');
  return storage.watch(() => {
    const started = performance.now();
    const recovered = catalog.reloadFailedAt !== undefined;
    catalog.reload().then(
      (changes) => report.reloaded(changes, catalog.entries.length, recovered, Math.round(performance.now() - started)),
      (error: unknown) => report.warn({ code: 'reload-failed', message: `reload failed, still serving the previous catalog: ${oneLine(error)}` }),
    );
  });
}

/** An error's message and its cause's, as core words a warning. */
function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (cause: ${error.cause.message})` : error.message;
}
