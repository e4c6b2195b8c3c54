// Type tests for @skillmount/storage-fs's public types: checked by tsc (see types.test.ts), never run.
import type { SkillFiles } from '@skillmount/core';
import { type FsStorage, type FsStorageOptions, fsStorage } from '@skillmount/storage-fs';

const options = { debounceMs: 100, maxWaitMs: 1000, fullWalkMs: Number.POSITIVE_INFINITY, workerThreads: false } satisfies FsStorageOptions;
const storage: FsStorage = fsStorage('./skills', options);
const files: SkillFiles = storage;
// @ts-expect-error maxWaitMs is a number of milliseconds, not a duration string
const wrong: FsStorageOptions = { maxWaitMs: '1s' };
void files;
void wrong;
