import { SKILL_SCHEME } from '../protocol/constants.js';
import { encodeSegment } from '../uri/segment.js';

/**
 * Skill URIs of storage paths: a folder's URI is encoded once and shared by all its files. Gives
 * exactly what `buildSkillUri` gives for `[...prefix, ...path.split('/')]`.
 */
export class UriTable {
  readonly #scheme: string;
  readonly #prefixUri: string | undefined;
  readonly #folders = new Map<string, string>();

  /** `prefix`: the decoded segments before every storage path, the first being the authority. */
  constructor(prefix: readonly string[], scheme = SKILL_SCHEME) {
    this.#scheme = scheme;
    if (prefix.length > 0) {
      this.#prefixUri = `${scheme}://${prefix.map((segment, i) => encodeSegment(segment, i === 0)).join('/')}`;
    }
  }

  /** The published URI of a file (not kept: each file's record holds its own). */
  uri(path: string): string {
    // join, not a template literal: one flat string per URI rather than a rope kept beside its flattened copy.
    const slash = path.lastIndexOf('/');
    if (slash < 0)
      return this.#prefixUri === undefined ? [this.#scheme, encodeSegment(path, true)].join('://') : [this.#prefixUri, encodeSegment(path)].join('/');
    return [this.folderUri(path.slice(0, slash)), encodeSegment(path.slice(slash + 1))].join('/');
  }

  /** The published URI of a folder, built once and shared by everything below it. */
  folderUri(path: string): string {
    let uri = this.#folders.get(path);
    if (uri === undefined) {
      uri = this.uri(path);
      this.#folders.set(path, uri);
    }
    return uri;
  }
}
