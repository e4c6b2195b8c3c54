const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A byte count for people: `532 B`, `1.7 KiB`, `19.1 MiB`; an exact multiple has no decimals
 * (`16 MiB`), so limits read as they are documented.
 *
 * @example
 * ```ts
 * import { formatBytes } from '@skillmount/core';
 *
 * formatBytes(532); // '532 B'
 * formatBytes(16 * 1024 * 1024); // '16 MiB'
 * ```
 * @throws Nothing.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = -1;
  // Rounded to one decimal first, so 1048575 bytes reads 1.0 MiB, not 1024.0 KiB.
  while (Math.round(value * 10) / 10 >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** `1 file`, `2 files`: a count with its noun, singular for one. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
