/** Where a skill:// URI lives in a served folder, and what is on disk there. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The file a `skill://` URI names under `root` (segments decoded). */
export function diskPath(root: string, uri: string): string {
  return path.join(root, ...uri.slice('skill://'.length).split('/').map(decodeURIComponent));
}

export function diskBytes(root: string, uri: string): Buffer {
  return readFileSync(diskPath(root, uri));
}
