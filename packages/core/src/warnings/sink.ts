import type { SkillWarning } from '../types.js';

// One sink per source when the app gave no onWarning, so every server attached to it shares what was told.
const sourceSinks = new WeakMap<object, (warning: SkillWarning) => void>();

/** Where warnings about `source` go: the app's `onWarning`, else the source's own `warn`, else `fallback`; the same function every call. */
export function warningSink(
  source: { warn?(warning: SkillWarning): void },
  onWarning: ((warning: SkillWarning) => void) | undefined,
  fallback: (warning: SkillWarning) => void,
): (warning: SkillWarning) => void {
  if (onWarning) return onWarning;
  if (typeof source.warn !== 'function') return fallback;
  let sink = sourceSinks.get(source);
  if (!sink) {
    sink = (warning) => source.warn!(warning);
    sourceSinks.set(source, sink);
  }
  return sink;
}
