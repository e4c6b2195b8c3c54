import { OptionError, type OptionErrorCode } from './option-error.js';

/** Throws the `OptionError` for `option`, prefixed with the package that checks it. */
export type OptionFail = (code: OptionErrorCode, option: string, detail: string) => never;

export function optionFail(packageName: string): OptionFail {
  return (code, option, detail) => {
    throw new OptionError(code, option, detail, packageName);
  };
}

/** For a value that should have been a number: a number out of range is `invalid-value`, anything else `invalid-type`. */
export const numberProblem = (value: unknown): OptionErrorCode => (typeof value === 'number' ? 'invalid-value' : 'invalid-type');

export const isPositiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;

/** A value as an error message shows it: strings quoted, objects and functions by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}
