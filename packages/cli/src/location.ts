import { statSync } from 'node:fs';
import { OptionError } from '@skillmount/core';
import { hideSecret, redact, withoutPassword } from './redact.js';
import { configuredEndpoint, isUnansweredManifestNote, s3Setup } from './s3-problems.js';
import { complain } from './terminal/print.js';
import type { Location, OpenedStorage, OpenStorageOptions } from './types.js';
import { UsageError } from './usage.js';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const FORMS = 'a folder path, s3://bucket/prefix or postgres://user@host/database[#namespace]';

/**
 * Parse a location given on the command line: a folder path, `s3://bucket/prefix` or
 * `postgres://…` / `postgresql://…` with an optional `#namespace`. Registers any password in the
 * URL so that no message shows it. Throws a UsageError for a location that can never work.
 *
 * @example
 * ```ts
 * import { parseLocation } from 'skillmount';
 *
 * const where = parseLocation('s3://my-skills/prod/');
 * if (where.kind === 's3') console.log(where.bucket, where.prefix); // 'my-skills' 'prod/'
 * ```
 * @throws Error when the location can never work: empty, an S3 URL without a bucket, a PostgreSQL URL that does not
 * parse or has a malformed `#namespace`, or an unsupported scheme.
 */
export function parseLocation(location: string): Location {
  const scheme = SCHEME.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (location === '') throw new UsageError(`the location is empty; give ${FORMS}`);
    return { kind: 'folder', path: location, label: location };
  }
  if (scheme === 's3') {
    // S3 keys are literal strings, so the prefix is taken as written (no percent-decoding), as the AWS CLI does.
    const rest = location.slice('s3://'.length);
    const slash = rest.indexOf('/');
    const bucket = slash === -1 ? rest : rest.slice(0, slash);
    const prefix = slash === -1 ? '' : rest.slice(slash + 1);
    if (bucket === '') throw new UsageError(`"${location}" names no bucket; write s3://bucket or s3://bucket/prefix`);
    return { kind: 's3', bucket, prefix, label: location };
  }
  if (scheme === 'postgres' || scheme === 'postgresql') {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      throw new UsageError(`"${redact(location)}" is not a valid PostgreSQL URL; write postgres://user@host:5432/database[#namespace]`);
    }
    if (url.password) hideSecret(url.password);
    const passwordParam = [...url.searchParams].find(([key]) => key.toLowerCase() === 'password')?.[1];
    if (passwordParam) hideSecret(passwordParam);
    const hash = location.indexOf('#');
    let namespace = '';
    if (hash !== -1) {
      try {
        namespace = decodeURIComponent(location.slice(hash + 1));
      } catch {
        throw new UsageError(`the #namespace of "${withoutPassword(location)}" has a malformed %-escape`);
      }
    }
    const connectionString = hash === -1 ? location : location.slice(0, hash);
    return {
      kind: 'postgres',
      connectionString,
      namespace,
      label: withoutPassword(location),
    };
  }
  throw new UsageError(`unsupported location "${withoutPassword(location)}" (scheme ${scheme}://); give ${FORMS}`);
}

/**
 * Open a storage location given on the command line (see `parseLocation`). The caller closes it.
 * S3 uses the AWS SDK's standard environment (`AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`,
 * `AWS_REGION`, credentials), with path-style addressing when a custom endpoint is set.
 *
 * @example
 * ```ts
 * import { SkillCatalog } from '@skillmount/core';
 * import { openStorage } from 'skillmount';
 *
 * const opened = await openStorage('./skills');
 * try {
 *   const catalog = await SkillCatalog.load(opened.storage);
 *   console.log(`${catalog.entries.length} skills in ${opened.label}`);
 * } finally {
 *   await opened.close();
 * }
 * ```
 * @throws Error (the promise rejects) for a location {@link parseLocation} refuses, a folder that does not exist,
 * an option that does not apply to the location's kind, or storage options the storage refuses.
 */
export async function openStorage(location: string | Location, options: OpenStorageOptions = {}): Promise<OpenedStorage> {
  const where = typeof location === 'string' ? parseLocation(location) : location;
  const onError = options.onError ?? quiet((message: string) => complain(`skillmount: warning: ${message}`));
  if (options.table !== undefined && where.kind !== 'postgres') throw new UsageError(`--table applies to postgres:// locations only, not to ${where.label}`);
  if (options.pollIntervalMs !== undefined && where.kind !== 's3')
    throw new UsageError(`--poll-interval applies to s3:// locations only, not to ${where.label}`);
  if (options.fullListIntervalMs !== undefined && where.kind !== 's3')
    throw new UsageError(`--full-list-interval applies to s3:// locations only, not to ${where.label}`);

  if (where.kind === 'folder') {
    let isDirectory = false;
    try {
      isDirectory = statSync(where.path).isDirectory();
    } catch {
      throw new UsageError(`no such folder: ${where.path}`);
    }
    if (!isDirectory) throw new UsageError(`not a folder: ${where.path}`);
    // Each storage package is loaded only when used: the AWS SDK alone takes a while to import.
    const { fsStorage } = await import('@skillmount/storage-fs');
    const storage = fsStorage(where.path);
    return { kind: 'folder', storage, label: storage.root, close: async () => {}, explain: (error, action) => explain(storage.root, error, action) };
  }

  if (where.kind === 's3') {
    const { s3Storage, MANIFEST_PATH } = await import('@skillmount/storage-s3');
    let storage;
    let label = where.label;
    try {
      storage = s3Storage({
        bucket: where.bucket,
        prefix: where.prefix,
        ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
        ...(options.fullListIntervalMs !== undefined ? { fullListIntervalMs: options.fullListIntervalMs } : {}),
        // Notes about the manifest come from any load; anything else from a failed watch poll.
        onError: (error) => {
          if (isUnansweredManifestNote(error, MANIFEST_PATH)) return;
          const polling = `watching ${label} (polling every ${options.pollIntervalMs ?? 30_000} ms) failed, will try again: `;
          onError(redact(`${error.path === MANIFEST_PATH ? '' : polling}${error.message}`));
        },
      });
    } catch (error) {
      throw new UsageError(`${where.label}: ${optionMessage(error)}`);
    }
    label = `s3://${storage.bucket}/${storage.prefix}`;
    const endpoint = await configuredEndpoint(storage.client);
    const s3 = storage;
    return {
      kind: 's3',
      storage: s3,
      label,
      close: () => s3.close(),
      explain(error, action = 'cannot load skills from') {
        const setup = s3Setup(error, endpoint);
        return setup === undefined ? explain(label, error, action) : new Error(redact(`${action} ${label}: ${setup}`), { cause: error });
      },
    };
  }

  const { postgresStorage } = await import('@skillmount/storage-postgres');
  let storage;
  try {
    storage = postgresStorage({
      connectionString: where.connectionString,
      namespace: where.namespace,
      ...(options.table !== undefined ? { table: options.table } : {}),
      onError: (error) => onError(redact(error.message)),
    });
  } catch (error) {
    throw new UsageError(`${where.label}: ${redact(optionMessage(error))}`);
  }
  const pg = storage;
  const opened: OpenedStorage = {
    kind: 'postgres',
    storage: pg,
    label: where.label,
    close: () => pg.close(),
    explain(error, action) {
      if (hasDriverCode(error, '42P01')) {
        return new Error(
          `${action ?? 'cannot load skills from'} ${where.label}: PostgreSQL table ${pg.table} does not exist; ` +
            `run "skillmount publish <folder> ${where.label}${options.table !== undefined ? ` --table ${options.table}` : ''}" first (it creates the table)`,
        );
      }
      return explain(where.label, error, action);
    },
  };
  if (options.migrate) {
    try {
      await pg.migrate();
    } catch (error) {
      await pg.close().catch(() => undefined);
      throw opened.explain(error, 'cannot open');
    }
  }
  return opened;
}

/** The same message again within this long is not repeated: a storage that stays down would otherwise fill the log. */
const REPEAT_AFTER_MS = 60_000;

/** `report`, told a message again only after REPEAT_AFTER_MS. */
export function quiet(report: (message: string) => void): (message: string) => void {
  const last = new Map<string, number>();
  return (message) => {
    const now = Date.now();
    const at = last.get(message);
    if (at !== undefined && now - at < REPEAT_AFTER_MS) return;
    last.set(message, now);
    if (last.size > 100) last.delete(last.keys().next().value!);
    report(message);
  };
}

/** An error restated with the location it happened at, credentials masked. */
function explain(label: string, error: unknown, action = 'cannot load skills from'): Error {
  const message = error instanceof Error ? error.message : String(error);
  return new Error(redact(`${action} ${label}: ${message}`), { cause: error });
}

/** A storage package's option error, without its package-name prefix (the CLI names the location instead). */
function optionMessage(error: unknown): string {
  if (error instanceof OptionError) return error.option === '' ? `options ${error.detail}` : `option "${error.option}" ${error.detail}`;
  return error instanceof Error ? error.message : String(error);
}

/** True when `error` or one of its causes carries this PostgreSQL error code (`42P01`: no such table). */
function hasDriverCode(error: unknown, code: string): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}
