import { brand, isBranded } from './brand.js';

/**
 * What was wrong with an option, for code to branch on (never on the message):
 *
 * - `invalid-type`: the value has the wrong type or shape (a string where a number goes, an
 *   object without the methods it needs). A `TypeError`.
 * - `invalid-value`: the type is right, the value is not one the option accepts (0 where a
 *   positive integer goes, a prefix with `..`, an unknown `cacheScope`). A `RangeError`.
 * - `missing-option`: a required option was not given, or was given as `undefined`. A `TypeError`.
 * - `conflicting-options`: options that exclude each other were given together, or an option
 *   was given that applies only with another one. A `TypeError`.
 * - `unknown-option`: a key that is not an option (a typo, say). A `TypeError`.
 */
export type OptionErrorCode = 'invalid-type' | 'invalid-value' | 'missing-option' | 'conflicting-options' | 'unknown-option';

/**
 * A bad option, found when something is created (a catalog, a storage, an adapter, a client),
 * so a mistake fails at start-up rather than on a request. The message is
 * `<package>: option "<option>" <detail>` (`<package>: options <detail>` for the options object
 * itself, where `option` is `''`).
 */
export interface OptionError extends Error {
  readonly name: 'OptionError';
  readonly code: OptionErrorCode;
  /** The option, as the caller wrote it: `maxSessions`, `limits.files`, `catalog.pageSize`; `''` for the options object itself. */
  readonly option: string;
  /** The message without the package and option names, for code that re-words it. */
  readonly detail: string;
}

export interface OptionErrorConstructor {
  /** An `OptionError`: a `RangeError` for `invalid-value`, a `TypeError` for every other code. */
  new (code: OptionErrorCode, option: string, detail: string, packageName?: string): OptionError;
  /** True for an option error from any copy of `@skillmount/core` (ESM or CJS), whichever class it is. */
  [Symbol.hasInstance](value: unknown): value is OptionError;
  readonly prototype: OptionError;
}

const BRAND = '@skillmount/core/OptionError';

function messageOf(option: string, detail: string, packageName: string): string {
  return option === '' ? `${packageName}: options ${detail}` : `${packageName}: option "${option}" ${detail}`;
}

class OptionTypeError extends TypeError implements OptionError {
  declare readonly name: 'OptionError';
  readonly code: OptionErrorCode;
  readonly option: string;
  readonly detail: string;
  constructor(code: OptionErrorCode, option: string, detail: string, packageName: string) {
    super(messageOf(option, detail, packageName));
    Object.defineProperty(this, 'name', { value: 'OptionError', configurable: true, writable: true });
    this.code = code;
    this.option = option;
    this.detail = detail;
  }
  static {
    brand(this, BRAND);
  }
}

class OptionRangeError extends RangeError implements OptionError {
  declare readonly name: 'OptionError';
  readonly code: OptionErrorCode;
  readonly option: string;
  readonly detail: string;
  constructor(code: OptionErrorCode, option: string, detail: string, packageName: string) {
    super(messageOf(option, detail, packageName));
    Object.defineProperty(this, 'name', { value: 'OptionError', configurable: true, writable: true });
    this.code = code;
    this.option = option;
    this.detail = detail;
  }
  static {
    brand(this, BRAND);
  }
}

/**
 * One name for both classes: `new OptionError(code, …)` returns the `TypeError` or the
 * `RangeError` the code calls for, and `instanceof OptionError` is true for either, from any copy.
 */
export const OptionError = function OptionError(code: OptionErrorCode, option: string, detail: string, packageName = 'skillmount'): OptionError {
  return code === 'invalid-value' ? new OptionRangeError(code, option, detail, packageName) : new OptionTypeError(code, option, detail, packageName);
} as unknown as OptionErrorConstructor;
brand(OptionError as unknown as { prototype: object }, BRAND);
Object.defineProperty(OptionError, Symbol.hasInstance, { value: (value: unknown) => isBranded(OptionError as unknown as { prototype: object }, value) });
