import { ENTRY_CHANGED_REASON, INTERNAL_ERROR, INVALID_PARAMS } from './protocol/constants.js';
import type { SkillWarning } from './types.js';
import { brand, isBranded } from './brand.js';

/**
 * An error that reaches the client as a JSON-RPC error with this exact code and message.
 * (The SDK's McpError would prefix the message with "MCP error -32602:".)
 *
 * @example
 * ```ts
 * import { JsonRpcErrorCode, SkillProtocolError } from '@skillmount/core';
 *
 * throw new SkillProtocolError(JsonRpcErrorCode.InvalidParams, 'skill name must be lowercase', { name: 'Refunds' });
 * ```
 * @throws Nothing: the constructor only records the code, message and data.
 */
export class SkillProtocolError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'SkillProtocolError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillProtocolError');
  }
}

/**
 * Unknown skill, file or folder: `-32602` with `data: { uri }`, as hosts expect for a miss.
 *
 * @example
 * ```ts
 * import { SkillNotFoundError } from '@skillmount/core';
 *
 * try {
 *   // … a source's get() or read() for a URI it does not serve
 * } catch (error) {
 *   if (error instanceof SkillNotFoundError) console.log(error.code, error.data); // -32602 { uri: '…' }
 * }
 * ```
 * @throws Nothing: the constructor only records the message and the URI.
 */
export class SkillNotFoundError extends SkillProtocolError {
  constructor(message: string, uri: string) {
    super(INVALID_PARAMS, message, { uri });
    this.name = 'SkillNotFoundError';
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/SkillNotFoundError');
  }
}

/** What a catalog answers for a skill it does not serve; custom sources that return `undefined` get the same. */
export const skillNotFound = (uri: string) => new SkillNotFoundError(`No skill is served at ${uri}`, uri);
/** What a catalog answers for a file it does not serve. */
export const fileNotFound = (uri: string) => new SkillNotFoundError(`Resource ${uri} not found`, uri);
/** What a catalog answers for a folder it does not serve. */
export const directoryNotFound = (uri: string) => new SkillNotFoundError(`No directory is served at ${uri}`, uri);

export function invalidParams(message: string, data?: unknown): SkillProtocolError {
  return new SkillProtocolError(INVALID_PARAMS, message, data);
}

export function internalError(message: string): SkillProtocolError {
  return new SkillProtocolError(INTERNAL_ERROR, message);
}

/**
 * A catalog could not be built (strict mode) or a skill could not be built into an entry.
 *
 * @example
 * ```ts
 * import { CatalogError, SkillCatalog } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * try {
 *   await SkillCatalog.load(fsStorage('./skills'), { strict: true });
 * } catch (error) {
 *   if (error instanceof CatalogError) for (const problem of error.problems) console.error(problem.path, problem.message);
 * }
 * ```
 * @throws Nothing: the constructor only builds the message from the problems.
 */
export class CatalogError extends Error {
  readonly problems: readonly SkillWarning[];
  constructor(problems: readonly SkillWarning[], context = 'skills catalog') {
    const lines = problems.map((p) => `  - ${p.path ?? p.uri ?? '(root)'}: ${p.message}`);
    super(`${context}: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${lines.join('\n')}`);
    this.name = 'CatalogError';
    this.problems = problems;
  }
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(this, value);
  }
  static {
    brand(this, '@skillmount/core/CatalogError');
  }
}

export { StorageError } from './storage-kit/storage-error.js';

/**
 * A file whose bytes no longer match what was published (found by a check of the bytes, or by a
 * storage refusing to read more than the published size): the warning to report and the error
 * the client gets. Served again once the catalog reloads.
 */
export function changedFile(uri: string): { warning: SkillWarning; error: SkillProtocolError } {
  return {
    warning: {
      code: 'changed',
      uri,
      message:
        `refused to serve ${uri}: its bytes no longer match the published size and digest; ` +
        `the storage changed since the catalog was loaded, call reload()`,
    },
    error: internalError(`${uri} changed since the skills catalog was loaded; it will be served again after the server reloads its catalog`),
  };
}

/**
 * A `resources/read` named a digest (the entry the client holds) whose bytes are no longer served:
 * the skill was reloaded since, and the earlier bytes were not kept (or no longer are). `-32602`
 * with `data: { uri, digest, reason: 'entry-changed' }`, like any file the server does not serve.
 */
export function entryChanged(uri: string, digest: string): SkillProtocolError {
  return new SkillProtocolError(
    INVALID_PARAMS,
    `${uri} changed: the skill was reloaded and the bytes of ${digest} are no longer served; ` +
      "ask skills/get for the skill's entry again and read against it",
    { uri, digest, reason: ENTRY_CHANGED_REASON },
  );
}
