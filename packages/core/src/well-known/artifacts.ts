/**
 * Built archives, so an index or a download does not read and zip a skill's files each time.
 * Keyed by the skill's files (paths, sizes, digests): the same files give the same bytes, so an
 * entry stays right across reloads and tenants, and a reload that changes a file changes the key.
 * Bounded: the bytes by total size (least recently used out), the digests by count; an archive
 * whose bytes were dropped is built again when downloaded, from files checked against their digests.
 */
import { createHash } from 'node:crypto';
import { sha256Digest } from '../bytes/digest.js';
import { type ArchiveFile, zipArchive } from './archive.js';
import type { Candidate } from './select.js';

/** Memory for built archives; one archive of up to an eighth of it (8 MiB) is kept. */
export const ARCHIVE_CACHE_BYTES = 64 * 1024 * 1024;
/** One archive larger than this is not kept (built again for each download). */
const LARGEST_KEPT = ARCHIVE_CACHE_BYTES / 8;
/** Archive digests remembered (about 200 bytes each), so an index needs no archive bytes. */
const REMEMBERED_DIGESTS = 4096;

export interface BuiltArchive {
  digest: string;
  size: number;
  /** Absent when only the digest was remembered. */
  bytes?: Uint8Array;
}

export class ArtifactStore {
  readonly #bytes = new Map<string, Uint8Array>();
  #held = 0;
  readonly #digests = new Map<string, { digest: string; size: number }>();
  /** One build per key at a time: concurrent requests for one archive share it. */
  readonly #building = new Map<string, Promise<Uint8Array>>();

  /** Memory the kept archives hold, in bytes. */
  get size(): number {
    return this.#held;
  }

  /**
   * The archive of `candidate`: its digest and size (and bytes, when `withBytes` or when they had
   * to be built). `read` gives one file's bytes, already checked against its published digest.
   */
  async archive(candidate: Candidate, read: (uri: string) => Promise<Uint8Array>, withBytes: boolean): Promise<BuiltArchive> {
    const key = keyOf(candidate);
    const known = this.#digests.get(key);
    const kept = this.#kept(key);
    if (known && kept) return { ...known, bytes: kept };
    if (known && !withBytes) return known;
    const bytes = await this.#build(key, candidate, read);
    return { ...this.#remember(key, bytes), bytes };
  }

  #build(key: string, candidate: Candidate, read: (uri: string) => Promise<Uint8Array>): Promise<Uint8Array> {
    let building = this.#building.get(key);
    if (!building) {
      building = (async () => {
        const files: ArchiveFile[] = [];
        for (const file of candidate.files) files.push({ path: file.path, bytes: await read(file.uri) });
        return zipArchive(files);
      })().finally(() => this.#building.delete(key));
      this.#building.set(key, building);
    }
    return building;
  }

  #remember(key: string, bytes: Uint8Array): { digest: string; size: number } {
    const known = { digest: sha256Digest(bytes), size: bytes.byteLength };
    this.#digests.delete(key);
    this.#digests.set(key, known);
    if (this.#digests.size > REMEMBERED_DIGESTS) this.#digests.delete(this.#digests.keys().next().value!);
    this.#keep(key, bytes);
    return known;
  }

  /** Kept bytes, now the most recently used. */
  #kept(key: string): Uint8Array | undefined {
    const bytes = this.#bytes.get(key);
    if (bytes === undefined) return undefined;
    this.#bytes.delete(key);
    this.#bytes.set(key, bytes);
    return bytes;
  }

  #keep(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > LARGEST_KEPT || this.#bytes.has(key)) return;
    this.#bytes.set(key, bytes);
    this.#held += bytes.byteLength;
    for (const [oldest, old] of this.#bytes) {
      if (this.#held <= ARCHIVE_CACHE_BYTES) break;
      this.#bytes.delete(oldest);
      this.#held -= old.byteLength;
    }
  }
}

/** What the archive's bytes depend on, and nothing else. */
function keyOf(candidate: Candidate): string {
  const hash = createHash('sha256');
  for (const file of candidate.files) hash.update(`${file.path}\u0000${file.size}\u0000${file.digest}\n`);
  return hash.digest('hex');
}
