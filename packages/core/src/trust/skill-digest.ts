/**
 * The digest of a skill: one value naming a skill's whole content, computed from its files'
 * relative paths and their SHA-256 digests, so it can be made without the bytes at hand (a catalog,
 * a signed manifest and a client each hold the per-file digests already). Standard JavaScript and
 * WebCrypto only: the host-side client imports it in browsers. The algorithm (docs/reference/trust.md):
 *
 * 1. Each file is a path relative to the skill's folder (`/`-separated, no empty, `.` or `..`
 *    segment, no leading `/`, no U+0000) and `sha256:<64 lowercase hex>`. Paths are unique.
 * 2. Files are sorted by the UTF-8 bytes of their paths (what Go, Python and Rust sort by).
 * 3. The manifest is the bytes `skill-digest/v1` then 0x0A, then per file: the UTF-8 path, one
 *    0x00 byte, and the 32 raw digest bytes. A path holds no 0x00 and a digest is fixed-length, so
 *    the manifest parses one way only.
 * 4. The skill digest is `sha256:` and the lowercase hex SHA-256 of the manifest.
 */

/** One file of a skill as the skill digest sees it. */
export interface SkillDigestFile {
  /** Relative to the skill's folder, `/`-separated (`SKILL.md`, `scripts/run.sh`). */
  path: string;
  /** `sha256:<64 lowercase hex>` of the file's bytes. */
  digest: string;
}

const MANIFEST_TAG = 'skill-digest/v1\n';
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const encoder = new TextEncoder();

/** Why `path` cannot name a file of a skill, or undefined when it can. */
export function skillPathProblem(path: string): string | undefined {
  if (typeof path !== 'string' || path === '') return 'it is empty';
  if (path.includes('\u0000')) return 'it holds U+0000';
  if (path.includes('\\')) return 'it holds "\\" (paths are "/"-separated)';
  if (path.startsWith('/')) return 'it starts with "/" (paths are relative to the skill\'s folder)';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'it has an empty, "." or ".." segment';
  if (!path.isWellFormed()) return 'it holds a lone surrogate (not encodable as UTF-8)';
  return undefined;
}

const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};

/**
 * The manifest the skill digest hashes (step 3 above), for callers with a synchronous SHA-256.
 *
 * @example
 * ```ts
 * import { skillDigestManifest } from '@skillmount/core/client';
 *
 * const digest = `sha256:${'0'.repeat(64)}`;
 * skillDigestManifest([{ path: 'SKILL.md', digest }]).byteLength; // 16 + 8 + 1 + 32
 * ```
 * @throws {TypeError} A path that cannot name a file of a skill, a path listed twice, or a digest not shaped `sha256:<64 lowercase hex>`.
 */
export function skillDigestManifest(files: readonly SkillDigestFile[]): Uint8Array {
  const entries = files.map((file) => {
    const problem = skillPathProblem(file.path);
    if (problem) throw new TypeError(`skillmount: the skill digest cannot use the path ${JSON.stringify(file.path)}: ${problem}`);
    if (typeof file.digest !== 'string' || !DIGEST.test(file.digest)) {
      throw new TypeError(`skillmount: the digest of ${JSON.stringify(file.path)} is ${JSON.stringify(file.digest)}, not sha256:<64 lowercase hex>`);
    }
    return { path: encoder.encode(file.path), digest: file.digest.slice(7) };
  });
  entries.sort((a, b) => compareBytes(a.path, b.path));
  const tag = encoder.encode(MANIFEST_TAG);
  let size = tag.length;
  for (let i = 0; i < entries.length; i++) {
    if (i > 0 && compareBytes(entries[i - 1]!.path, entries[i]!.path) === 0) {
      throw new TypeError(`skillmount: the skill digest lists the path ${JSON.stringify(new TextDecoder().decode(entries[i]!.path))} twice`);
    }
    size += entries[i]!.path.length + 1 + 32;
  }
  const manifest = new Uint8Array(size);
  manifest.set(tag, 0);
  let at = tag.length;
  for (const entry of entries) {
    manifest.set(entry.path, at);
    at += entry.path.length + 1; // the 0x00 is already there
    for (let i = 0; i < 32; i++) manifest[at + i] = Number.parseInt(entry.digest.slice(i * 2, i * 2 + 2), 16);
    at += 32;
  }
  return manifest;
}

/**
 * The digest of a skill, `sha256:<64 lowercase hex>`, from its files' paths and digests
 * (docs/reference/trust.md has the algorithm and published test vectors). Order of `files` does
 * not matter. Uses WebCrypto, so it runs in browsers (secure contexts), Node.js, Deno and Bun.
 *
 * @example
 * ```ts
 * import { skillDigest } from '@skillmount/core/client';
 *
 * const digest = await skillDigest([{ path: 'SKILL.md', digest: `sha256:${'0'.repeat(64)}` }]);
 * ```
 * @throws {TypeError} As {@link skillDigestManifest}, or when the runtime lacks WebCrypto.
 */
export async function skillDigest(files: readonly SkillDigestFile[]): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new TypeError('skillmount: the skill digest needs WebCrypto (globalThis.crypto.subtle), which this runtime lacks');
  return `sha256:${toHex(new Uint8Array(await subtle.digest('SHA-256', skillDigestManifest(files) as Uint8Array<ArrayBuffer>)))}`;
}

/** Lowercase hex of the bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
