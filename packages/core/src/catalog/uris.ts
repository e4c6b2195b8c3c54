import { SKILL_SCHEME } from '../protocol/constants.js';
import { encodeSegment } from '../uri/segment.js';

/**
 * Skill URIs and lookup keys of storage paths, built once per path and shared: a folder's URI is
 * encoded once for all its files, and the entry, the file index and the directory listing of a
 * catalog hold the same string instead of three copies. Gives exactly what `buildSkillUri` and
 * `skillUriKey` give for `[...prefix, ...path.split('/')]`.
 */
export class UriTable {
  readonly #prefixUri: string | undefined;
  readonly #prefixKey: string | undefined;
  readonly #uris = new Map<string, string>();

  constructor(prefix: readonly string[]) {
    if (prefix.length > 0) {
      this.#prefixUri = `${SKILL_SCHEME}://${prefix.map((segment, i) => encodeSegment(segment, i === 0)).join('/')}`;
      this.#prefixKey = prefix.join('/');
    }
  }

  /** The published URI of a relative storage path (a file or a folder). */
  uri(path: string): string {
    let uri = this.#uris.get(path);
    if (uri !== undefined) return uri;
    const slash = path.lastIndexOf('/');
    if (slash < 0) {
      uri = this.#prefixUri === undefined ? `${SKILL_SCHEME}://${encodeSegment(path, true)}` : `${this.#prefixUri}/${encodeSegment(path)}`;
    } else {
      uri = `${this.uri(path.slice(0, slash))}/${encodeSegment(path.slice(slash + 1))}`;
    }
    this.#uris.set(path, uri);
    return uri;
  }

  /** The lookup key of a relative storage path; the path itself when there is no prefix. */
  key(path: string): string {
    return this.#prefixKey === undefined ? path : `${this.#prefixKey}/${path}`;
  }
}
