/**
 * One tenant's archives, so an index or a download does not read and zip a skill's files each
 * time. Keyed by the skill digest (trust/skill-digest.ts, over paths and digests): the same files give the same bytes,
 * so an entry stays right across reloads, and a reload that changes a file changes the key.
 * Digests are remembered for at least every skill one index lists, least recently used out, so
 * an index asked again needs no archive built; bytes are kept in the memory all tenants share
 * (`KeptArchives`). An archive whose bytes were dropped is built again when downloaded, from
 * files checked against their digests.
 */
import { sha256Digest } from '../bytes/digest.js';
import { skillDigestManifest } from '../trust/skill-digest.js';
import { type ArchiveFile, zipArchive } from './archive.js';
import type { KeptArchives } from './kept-archives.js';
import { MAX_LISTED } from './rules.js';
import type { Candidate } from './select.js';

/** Archive digests remembered per tenant (about 200 bytes each): every skill of one full index. */
export const REMEMBERED_DIGESTS = MAX_LISTED;

export interface BuiltArchive {
  digest: string;
  size: number;
  /** Absent when the caller did not need them and they were not kept. */
  bytes?: Uint8Array;
}

/** Reads one file of the skill, checked against its published digest, on the build's own signal. */
export type ReadFile = (uri: string, signal: AbortSignal) => Promise<Uint8Array>;

/** A build several requests may wait for: it runs on its own signal, aborted once none of them is left. */
interface SharedBuild {
  bytes: Promise<Uint8Array>;
  stop: AbortController;
  waiting: number;
}

export class ArtifactStore {
  readonly #kept: KeptArchives;
  readonly #tenant: number;
  readonly #digests = new Map<string, { digest: string; size: number }>();
  /** One build per key at a time: concurrent requests for one archive share it. */
  readonly #building = new Map<string, SharedBuild>();

  /** `tenant` names this store's share of `kept`. */
  constructor(kept: KeptArchives, tenant: number) {
    this.#kept = kept;
    this.#tenant = tenant;
  }

  /**
   * The archive of `candidate`: its digest and size, and its bytes unless `wantsBytes(digest)`
   * says the request needs none (a HEAD, a conditional GET its ETag answers) and the digest is
   * already known. `signal` is the request's: when it aborts, this request stops waiting, and a
   * build other requests still wait for goes on.
   */
  async archive(candidate: Candidate, read: ReadFile, wantsBytes: (digest: string) => boolean, signal?: AbortSignal): Promise<BuiltArchive> {
    const key = keyOf(candidate);
    const known = this.#digests.get(key);
    if (known) {
      this.#digests.delete(key);
      this.#digests.set(key, known); // now the most recently used
      const bytes = this.#kept.get(this.#tenant, key);
      if (bytes) return { ...known, bytes };
      if (!wantsBytes(known.digest)) return known;
    }
    const bytes = await this.#build(key, candidate, read, signal);
    return { ...this.#remember(key, bytes), bytes };
  }

  #build(key: string, candidate: Candidate, read: ReadFile, signal: AbortSignal | undefined): Promise<Uint8Array> {
    signal?.throwIfAborted();
    let build = this.#building.get(key);
    if (!build) {
      const stop = new AbortController();
      const bytes = (async () => {
        const files: ArchiveFile[] = [];
        for (const file of candidate.files) files.push({ path: file.path, bytes: await read(file.uri, stop.signal) });
        return zipArchive(files);
      })();
      const started: SharedBuild = { bytes, stop, waiting: 0 };
      build = started;
      this.#building.set(key, started);
      // Settled here as well, so a build every requester left rejects into no one's lap.
      bytes.then(
        () => this.#ended(key, started),
        () => this.#ended(key, started),
      );
    }
    return this.#wait(key, build, signal);
  }

  /** `build`'s bytes for one request, which stops waiting when its `signal` aborts; the last to leave stops the build. */
  #wait(key: string, build: SharedBuild, signal: AbortSignal | undefined): Promise<Uint8Array> {
    build.waiting++;
    return new Promise((resolve, reject) => {
      const leave = () => {
        reject(signal!.reason);
        if (--build.waiting > 0) return;
        build.stop.abort(new Error('every request waiting for this archive went away'));
        this.#ended(key, build);
      };
      signal?.addEventListener('abort', leave, { once: true });
      build.bytes.then(
        (bytes) => {
          signal?.removeEventListener('abort', leave);
          resolve(bytes);
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  /** A build that settled or was stopped is no longer one a new request may join. */
  #ended(key: string, build: SharedBuild): void {
    if (this.#building.get(key) === build) this.#building.delete(key);
  }

  #remember(key: string, bytes: Uint8Array): { digest: string; size: number } {
    const known = { digest: sha256Digest(bytes), size: bytes.byteLength };
    this.#digests.delete(key);
    this.#digests.set(key, known);
    if (this.#digests.size > REMEMBERED_DIGESTS) this.#digests.delete(this.#digests.keys().next().value!);
    this.#kept.keep(this.#tenant, key, bytes);
    return known;
  }
}

/** What the archive's bytes depend on, and nothing else: the skill digest (its files' paths and digests). */
function keyOf(candidate: Candidate): string {
  return sha256Digest(skillDigestManifest(candidate.files));
}
