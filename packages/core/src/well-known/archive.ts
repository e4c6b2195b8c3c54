/**
 * A skill's files as one `.zip`, the same bytes for the same files: entries in byte order of
 * their paths, one fixed time, Unix mode 0644, no comment, compressed by `fflate` (JavaScript,
 * so the bytes do not depend on the zlib a Node build carries). Names are UTF-8 (the zip's
 * language-encoding flag), which the `skills` installer reads; a tar would carry a non-ASCII name
 * in a PAX header, which it ignores.
 */
import { Zip, ZipDeflate } from 'fflate';

export interface ArchiveFile {
  /** Relative to the skill's folder, `/`-separated (`SKILL.md`, `scripts/run.sh`). */
  path: string;
  bytes: Uint8Array;
}

/**
 * The one time every entry carries. fflate writes a zip's DOS time from a date's local fields,
 * so a date built from local fields gives the same bytes in every time zone.
 */
const FIXED_TIME = () => new Date(1980, 0, 2, 0, 0, 0);
/** A regular file, rw-r--r--, as Unix (`os` 3) reads the high 16 bits of the attributes. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const UNIX = 3;
const LEVEL = 6;

const byteOrder = (a: ArchiveFile, b: ArchiveFile) => Buffer.compare(Buffer.from(a.path, 'utf8'), Buffer.from(b.path, 'utf8'));

/** The zip of `files` (SKILL.md among them, at the root). */
export function zipArchive(files: readonly ArchiveFile[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  let done = false;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else chunks.push(chunk);
    if (final) done = true;
  });
  const mtime = FIXED_TIME();
  for (const file of [...files].sort(byteOrder)) {
    const entry = new ZipDeflate(file.path, { level: LEVEL });
    entry.mtime = mtime;
    entry.os = UNIX;
    entry.attrs = FILE_ATTRIBUTES;
    zip.add(entry);
    entry.push(file.bytes, true);
  }
  zip.end();
  if (failure) throw failure;
  // fflate's Zip with ZipDeflate runs synchronously: everything has been handed over by now.
  if (!done) throw new Error('skillmount: the zip archive was not finished synchronously');
  return Buffer.concat(chunks);
}
