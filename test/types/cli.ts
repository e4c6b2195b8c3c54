// Type tests for the skillmount package's public types: checked by tsc (see types.test.ts), never run.
import type { OpenStorageOptions } from 'skillmount';

const s3 = { pollIntervalMs: 10_000, fullListIntervalMs: Number.POSITIVE_INFINITY } satisfies OpenStorageOptions;
// @ts-expect-error fullListIntervalMs is a number of milliseconds, as --full-list-interval gives it, not the flag's text
const wrong: OpenStorageOptions = { fullListIntervalMs: 'never' };
void s3;
void wrong;
