/**
 * A site's `/.well-known/agent-skills/index.json` (the discovery 0.2.0 shape the `skills`
 * installer reads), for `skillmount ls --well-known` and `get --well-known`: the index, and each
 * artifact downloaded within the installer's limits and checked against its digest before use.
 * An archive's files are checked for the paths and counts the installer accepts; there is no
 * per-file digest in this shape to check them against.
 */
import { sha256Digest } from '@skillmount/core';
import { unzipSync } from 'fflate';
import { UsageError } from './usage.js';

const SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const INDEX_PATH = '.well-known/agent-skills/index.json';
const MAX_INDEX_BYTES = 4 * 1024 * 1024;
/** The installer's limits: a download, the files unpacked, how many. */
const LIMITS = { downloadBytes: 10 * 1024 * 1024, unpackedBytes: 25 * 1024 * 1024, files: 1000 };
const TIMEOUT_MS = 30_000;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

export interface SiteEntry {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  url: string;
  digest: string;
  /** The entry's `version` when it is a string, as the index has it (shown through `skillVersion`). */
  version?: string;
}

/** An artifact, its digest checked: the files it holds, by path. */
export interface SiteSkill {
  entry: SiteEntry;
  bytes: number;
  files: Map<string, Uint8Array>;
}

/** Where a site's index is: the URL itself when it names index.json, else under it. */
export function indexUrlOf(site: string): URL {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    throw new UsageError(`"${site}" is not a URL; give the site, e.g. https://skills.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${site}" is not an http(s) URL`);
  if (url.pathname.endsWith('/index.json')) return url;
  return new URL(INDEX_PATH, url.href.endsWith('/') ? url.href : `${url.href}/`);
}

/** The index's entries; those the installer would skip are returned apart, with why. */
export async function readIndex(indexUrl: URL, headers: Record<string, string>): Promise<{ entries: SiteEntry[]; invalid: string[] }> {
  const body = await download(indexUrl, headers, MAX_INDEX_BYTES);
  let index: unknown;
  try {
    index = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    throw new Error(`${indexUrl.href} is not JSON`);
  }
  const { $schema, skills } = (index ?? {}) as { $schema?: unknown; skills?: unknown };
  if ($schema !== SCHEMA || !Array.isArray(skills))
    throw new Error(`${indexUrl.href} is not a discovery 0.2.0 index ("$schema": "${SCHEMA}" and a "skills" array)`);
  const entries: SiteEntry[] = [];
  const invalid: string[] = [];
  for (const [i, raw] of skills.entries()) {
    const e = (raw ?? {}) as Record<string, unknown>;
    const problem =
      typeof e.name !== 'string' || e.name.length > 64 || !NAME.test(e.name)
        ? 'name'
        : typeof e.description !== 'string' || e.description.length === 0 || e.description.length > 1024
          ? 'description'
          : e.type !== 'skill-md' && e.type !== 'archive'
            ? 'type'
            : typeof e.url !== 'string' || e.url === ''
              ? 'url'
              : typeof e.digest !== 'string' || !DIGEST.test(e.digest)
                ? 'digest'
                : undefined;
    if (problem) invalid.push(`skills[${i}]: invalid ${problem}`);
    else
      entries.push({
        name: e.name as string,
        description: e.description as string,
        type: e.type as SiteEntry['type'],
        url: e.url as string,
        digest: e.digest as string,
        // Optional, and ignored unless a string: the installer does not read it.
        ...(typeof e.version === 'string' ? { version: e.version } : {}),
      });
  }
  return { entries, invalid };
}

/** Download an entry's artifact, check its digest, and unpack it (an archive within the installer's limits). */
export async function fetchSkill(indexUrl: URL, entry: SiteEntry, headers: Record<string, string>): Promise<SiteSkill> {
  const url = new URL(entry.url, indexUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${entry.name}: its url ${url.href} is not http(s)`);
  const bytes = await download(url, headers, LIMITS.downloadBytes);
  const digest = sha256Digest(bytes);
  if (digest !== entry.digest) throw new Error(`${entry.name}: ${url.href} has digest ${digest}, not the ${entry.digest} the index publishes`);
  if (entry.type === 'skill-md') return { entry, bytes: bytes.byteLength, files: new Map([['SKILL.md', bytes]]) };
  let count = 0;
  let unpacked = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter: (file) => {
        count++;
        unpacked += file.originalSize;
        if (count > LIMITS.files || unpacked > LIMITS.unpackedBytes) throw new Error(`over ${LIMITS.files} files or ${LIMITS.unpackedBytes} bytes unpacked`);
        return !file.name.endsWith('/');
      },
    });
  } catch (error) {
    throw new Error(`${entry.name}: ${url.href} is not a zip the installer would unpack: ${(error as Error).message}`);
  }
  const files = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(unzipped)) {
    if (path.startsWith('/') || path.includes('\\') || path.split('/').some((part) => part === '' || part === '.' || part === '..')) {
      throw new Error(`${entry.name}: the archive holds an unsafe path ${JSON.stringify(path)}`);
    }
    files.set(path, content);
  }
  if (!files.has('SKILL.md')) throw new Error(`${entry.name}: the archive has no SKILL.md at its root`);
  return { entry, bytes: bytes.byteLength, files };
}

/** The body of `url`, refused past `limit` bytes or `TIMEOUT_MS`. */
async function download(url: URL, headers: Record<string, string>, limit: number): Promise<Uint8Array> {
  const response = await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url.href} answered HTTP ${response.status}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > limit) throw new Error(`${url.href} is over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
