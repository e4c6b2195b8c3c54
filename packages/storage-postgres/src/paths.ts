/** A segment that can be part of a relative path: not empty, `.` or `..`, no `/`, `\` or NUL. */
export function isPlainSegment(segment: string): boolean {
  return segment.length > 0 && segment !== '.' && segment !== '..' && !/[/\\\0]/.test(segment);
}

/** A relative, `/`-separated path of plain segments (the root `''` is not one). */
export function isPlainPath(path: unknown): path is string {
  return typeof path === 'string' && path.length > 0 && path.split('/').every(isPlainSegment);
}
