import type { SkillWarning } from '../types.js';

const keyOf = (w: SkillWarning) => `${w.code}\u0000${w.path ?? ''}\u0000${w.uri ?? ''}\u0000${w.message}`;

/**
 * A reload's warnings as `onWarning` hears them: each one the previous load also had (same code,
 * subject and message) marked `repeated`, so a log can print a warning when it appears or
 * changes rather than on every reload.
 */
export function markRepeated(previous: readonly SkillWarning[], next: readonly SkillWarning[]): SkillWarning[] {
  if (previous.length === 0) return [...next];
  const before = new Set(previous.map(keyOf));
  return next.map((w) => (before.has(keyOf(w)) ? { ...w, repeated: true as const } : w));
}
