import type { SkillWarning } from '../types.js';
import { WARNING_CODES } from './codes.js';

/** Warnings remembered per owner; past this, the oldest is forgotten (and may be told again). */
const REMEMBERED = 1024;

// What each owner has told, by code and subject. Never by the onWarning function: an app that builds
// a server per request with a fresh arrow as onWarning must not hear the same warning per request.
const told = new WeakMap<object, Map<string, true>>();

/** The owner of what is told once per process (`per-process` codes are counted here, whoever tells them). */
export const THE_PROCESS: object = Object.freeze({});

/**
 * Pass `warning` to `warn` as often as its code's rule says (`WARNING_CODES`), counted for
 * `owner`: the source, router or plugin the warning comes from. `subject` is what the warning is
 * about when that is neither its `uri` nor its `path` (a tenant key, an SDK seam).
 */
export function tell(owner: object, warn: (warning: SkillWarning) => void, warning: SkillWarning, subject?: string): void {
  const once = WARNING_CODES[warning.code].once;
  if (once !== 'every-time' && once !== 'per-load') {
    const key = once === 'per-owner' ? warning.code : `${warning.code}\u0000${subject ?? warning.uri ?? warning.path ?? ''}`;
    if (!remember(once === 'per-process' ? THE_PROCESS : owner, key)) return;
  }
  warn(warning);
}

/** `tell` for one owner and sink. */
export function tellFor(owner: object, warn: (warning: SkillWarning) => void): (warning: SkillWarning, subject?: string) => void {
  return (warning, subject) => tell(owner, warn, warning, subject);
}

/** Record `key` as told by `owner`; false when it already was. */
function remember(owner: object, key: string): boolean {
  let keys = told.get(owner);
  if (!keys) {
    keys = new Map();
    told.set(owner, keys);
  }
  if (keys.has(key)) return false;
  if (keys.size >= REMEMBERED) keys.delete(keys.keys().next().value!);
  keys.set(key, true);
  return true;
}
