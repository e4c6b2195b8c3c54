import type { SkillWarning } from '../types.js';

/** Distinct warnings remembered per source and sink; past this, the oldest is forgotten (and may be told again). */
const REMEMBERED = 1024;

// Per source, then per sink: a stateless endpoint attaches the same source to a new server on every
// request, so what was told must outlive one server to keep a list call per second from flooding the log.
const told = new WeakMap<object, WeakMap<object, Map<string, true>>>();

/**
 * `warn`, telling each problem with what a source returned (same code, URI and message) once per
 * source and sink. The source's answers are checked on every request; its mistake is not news
 * the second time.
 */
export function warnOnce(source: object, warn: (warning: SkillWarning) => void): (warning: SkillWarning) => void {
  let bySink = told.get(source);
  if (!bySink) {
    bySink = new WeakMap();
    told.set(source, bySink);
  }
  let seen = bySink.get(warn);
  if (!seen) {
    seen = new Map();
    bySink.set(warn, seen);
  }
  const remembered = seen;
  return (warning) => {
    const key = `${warning.code}\u0000${warning.uri ?? ''}\u0000${warning.message}`;
    if (remembered.has(key)) return;
    if (remembered.size >= REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(key, true);
    warn(warning);
  };
}
