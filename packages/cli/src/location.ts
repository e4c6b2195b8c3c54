import { statSync } from 'node:fs';
import type { SkillFiles } from '@skillmount/core';
import { fsStorage } from '@skillmount/storage-fs';
import { UsageError } from './usage.js';

export interface OpenedStorage {
  storage: SkillFiles;
  /** Human-readable name of the location, for messages. */
  label: string;
  /** Release what opening it created. */
  close(): Promise<void>;
}

/** Open a storage location given on the command line. */
export async function openStorage(location: string): Promise<OpenedStorage> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new UsageError(`unsupported location "${location}": give a folder path`);
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(location).isDirectory();
  } catch {
    throw new UsageError(`no such folder: ${location}`);
  }
  if (!isDirectory) throw new UsageError(`not a folder: ${location}`);
  const storage = fsStorage(location);
  return { storage, label: storage.root, close: async () => {} };
}
