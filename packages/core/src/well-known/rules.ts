/**
 * What the `skills` installer (npm `skills`, `npx skills add <site>`) accepts from a
 * `/.well-known/agent-skills/index.json` in the Agent Skills discovery 0.2.0 shape: the index
 * schema, an entry's name and description, archive paths, and the limits it downloads within.
 * A skill that breaks one of these is left out of the index (with a warning), never published
 * for the installer to drop or fail on.
 */

/** The `$schema` that makes the installer read `type`, `url` and `digest` per entry. */
export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Where the surface lives under the origin (or under the adapter's MCP path). */
export const WELL_KNOWN_PREFIX = '/.well-known/agent-skills/';

/**
 * The installer's limits for one archive: its download, its files unpacked, and how many. The
 * installer's default downloader stops at 10 MiB and 25 MiB unpacked; its well-known reader at
 * 1000 files. The smaller of each is kept, so a skill published here installs with either path.
 */
export const INSTALLER_LIMITS = Object.freeze({ downloadBytes: 10 * 1024 * 1024, unpackedBytes: 25 * 1024 * 1024, files: 1000 });

/** Skills one index lists at most; a catalog with more publishes the first ones (a warning says so). */
export const MAX_LISTED = 10_000;

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Why the installer would skip an entry with this name or description, or undefined. */
export function entryProblem(name: unknown, description: unknown): string | undefined {
  if (typeof name !== 'string' || name.length < 1 || name.length > 64 || !NAME.test(name)) {
    return `its name ${JSON.stringify(name)} is not 1-64 characters of a-z, 0-9 and single inner hyphens`;
  }
  if (typeof description !== 'string' || description.length < 1 || description.length > 1024) {
    return 'its description is not a string of 1-1024 characters';
  }
  return undefined;
}

/**
 * Why the installer would refuse this path inside an archive (it refuses the whole archive), or
 * undefined: relative, `/`-separated, no `.` or `..` segment, no backslash, NUL or drive letter.
 */
export function archivePathProblem(path: string): string | undefined {
  if (path.length === 0 || path.startsWith('/')) return 'an empty or absolute path';
  if (path.includes('\\') || path.includes('\0')) return 'a backslash or NUL in the path';
  if (/^[A-Za-z]:/.test(path)) return 'a path that starts like a drive letter';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) return 'an empty, "." or ".." segment';
  return undefined;
}
