// Type tests for @skillmount/storage-s3's public types: checked by tsc (see types.test.ts), never run.
import type { SkillFiles } from '@skillmount/core';
import { type S3Storage, type S3StorageOptions, s3Storage } from '@skillmount/storage-s3';

const options = { bucket: 'skills', pollIntervalMs: 10_000, fullListIntervalMs: Number.POSITIVE_INFINITY } satisfies S3StorageOptions;
const storage: S3Storage = s3Storage(options);
// treeToken is always there on an S3 storage: no optional call needed.
const token: Promise<string | undefined> = storage.treeToken();
const files: SkillFiles = storage;
// @ts-expect-error fullListIntervalMs is a number of milliseconds, not a duration string
const wrong: S3StorageOptions = { bucket: 'skills', fullListIntervalMs: '5m' };
void token;
void files;
void wrong;
