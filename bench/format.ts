/** Printing: fixed-width numbers and Markdown tables, so the output pastes into BENCHMARKS.md as is. */

export const ms = (value: number) => (value >= 100 ? `${Math.round(value)} ms` : value >= 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(2)} ms`);
export const micros = (value: number) => `${Math.round(value).toLocaleString('en-US')} µs`;
export const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
export const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const count = (value: number) => value.toLocaleString('en-US');
/** "ours is N× better": for times, theirs/ours; for rates, ours/theirs. */
export const ratio = (value: number) => (Number.isFinite(value) ? `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×` : '–');

export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(headers), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
