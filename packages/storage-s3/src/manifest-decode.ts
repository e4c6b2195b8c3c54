import * as z from 'zod/mini';

/**
 * Reading a manifest's bytes, with the bounds that keep a planted one cheap. No import beyond
 * zod's tree-shakable build: the parsing thread (manifest-worker.ts) bundles this module and
 * nothing else, so that a thread starts by reading one small file.
 */
export const MANIFEST_VERSION = 1;

/**
 * The most entries a manifest may hold: 100 000 files, 10× the benchmark's 10 000-file catalog
 * and 2.5× its largest (2000 skills × 20 files), about 195 skills at the extension's 512-file
 * limit. Held in memory, that many entries cost tens of MB, about what the catalog built from
 * them costs; a planted manifest of a million entries would cost a gigabyte.
 */
export const MAX_MANIFEST_ENTRIES = 100_000;

/**
 * The default `maxManifestBytes`, 64 MiB = 100 000 entries × 671 bytes, the largest plausible
 * entry: about 440 bytes of fields (a 256-byte path, a quoted multipart ETag of up to 48, a size
 * of up to 16 digits, the 71-character digest, names and punctuation), and 230 bytes of SKILL.md
 * in base64 per entry (the benchmark's largest catalog carries 546: an 8 KiB SKILL.md per 20
 * files, at 40 000 entries, so 30 MB in all).
 */
export const DEFAULT_MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/**
 * JSON values per entry, with room to spare: an entry is 5 (its object and its 3 or 4 fields) and
 * adds about 10 of the bytes counted below (the `,` before it, the `:` of its path and of each
 * field, the `,` between fields, the `:` inside its digest).
 */
const VALUES_PER_ENTRY = 16;

const SIZE = 'must be a whole number of bytes, 0 or more';
const entrySchema = z.object(
  {
    etag: z.string({ error: 'must be the ETag, a string' }).check(z.minLength(1, 'must be the ETag, not empty')),
    size: z.int({ error: SIZE }).check(z.nonnegative(SIZE)),
    sha256: z.string({ error: 'must be a string' }).check(z.regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits')),
    content: z.optional(z.string({ error: 'must be the bytes in base64, a string' })),
  },
  { error: 'must be an object { etag, size, sha256, content? }' },
);

/** What the manifest says about one object, as written. */
export type ManifestEntry = z.infer<typeof entrySchema>;

const tooMany = (max: number, seen: string) =>
  `it has ${seen}, more than the ${max} entries a manifest may hold, so it was not used; ` +
  'a tree of that many files is read without a manifest (or split it over several prefixes, one storage each)';

/**
 * The entries of a manifest, in its order; throws an Error saying what is wrong with the bytes.
 * Past `maxEntries` it throws before anything is built: first from a count of bytes (before
 * parsing), then from the number of paths (before any entry is checked or copied).
 */
export function decodeEntries(bytes: Uint8Array, maxEntries = MAX_MANIFEST_ENTRIES): [string, ManifestEntry][] {
  // Every JSON value but the outermost follows a `[`, `,` or `:` outside a string. Counting those
  // bytes anywhere (strings too) over-counts, so it bounds what JSON.parse would build before it builds it.
  const maxValues = maxEntries * VALUES_PER_ENTRY + VALUES_PER_ENTRY;
  if (separatorsOver(bytes, maxValues)) throw new Error(tooMany(maxEntries, `more than ${maxValues} JSON values (counted before parsing), so more entries`));
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new Error(`it is not valid JSON (${(error as Error).message})`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== MANIFEST_VERSION) {
    throw new Error(`it has version ${JSON.stringify(version)}, and this @skillmount/storage-s3 reads version ${MANIFEST_VERSION} only`);
  }
  if (version === undefined) throw new Error(`it does not have the manifest's shape at "version": must be ${MANIFEST_VERSION}`);
  const files = (json as { files?: unknown }).files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw new Error(`it does not have the manifest's shape at "files": must be an object of paths to entries`);
  }
  const paths = Object.keys(files);
  if (paths.length > maxEntries) throw new Error(tooMany(maxEntries, `${paths.length} entries`));
  const entries: [string, ManifestEntry][] = [];
  for (const path of paths) {
    const parsed = entrySchema.safeParse((files as Record<string, unknown>)[path]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = ['files', path, ...issue.path].map((p) => JSON.stringify(p)).join('.');
      throw new Error(`it does not have the manifest's shape at ${where}: ${issue.message}`);
    }
    entries.push([path, parsed.data]);
  }
  return entries;
}

const COMMA = 0x2c;
const COLON = 0x3a;
const BRACKET = 0x5b;

function separatorsOver(bytes: Uint8Array, max: number): boolean {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if ((byte === COMMA || byte === COLON || byte === BRACKET) && ++count > max) return true;
  }
  return false;
}
