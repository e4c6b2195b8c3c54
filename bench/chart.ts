/**
 * A line chart as a standalone SVG document: axes (linear or logarithmic) with ticks and labels,
 * any number of series, a legend. No dependencies, so a run writes its charts offline; every text
 * is escaped.
 */

export interface Axis {
  label: string;
  /** Logarithmic (base 10 ticks), for figures that span orders of magnitude. Values ≤ 0 are left out. */
  log?: boolean;
  /** Ticks to draw instead of the computed ones (e.g. the levels a sweep measured). */
  ticks?: readonly number[];
  format?: (value: number) => string;
}

export interface Series {
  name: string;
  points: readonly (readonly [x: number, y: number])[];
  dashed?: boolean;
  /** False: markers only, no line (points that are not a sequence). */
  line?: boolean;
  /** Draw in the colour of the series at this index (a related series); by default its own. */
  colorOf?: number;
}

export interface Chart {
  title: string;
  subtitle?: string;
  x: Axis;
  y: Axis;
  series: readonly Series[];
}

const WIDTH = 760;
const HEIGHT = 440;
const PLOT = { left: 78, right: 540, top: 64, bottom: 376 };
const COLORS = ['#1f5fa8', '#c0392b', '#27864a', '#d9822b', '#7d4fa8', '#6d4c41', '#00838f'];

/** Text for an SVG text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** 3 significant digits, thousands separated: 0.25, 12.5, 1,250, 40,000. */
export function compact(value: number): string {
  if (value === 0) return '0';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return Number(value.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });
}

interface Scale {
  at(value: number): number;
  ticks: number[];
  accepts(value: number): boolean;
}

function niceStep(range: number, count: number): number {
  const raw = range / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((k) => k * power >= raw) ?? 10;
  return unit * power;
}

function scale(axis: Axis, values: readonly number[], from: number, to: number): Scale {
  const accepts = (v: number) => Number.isFinite(v) && (!axis.log || v > 0);
  const seen = [...values, ...(axis.ticks ?? [])].filter(accepts);
  let lo = seen.length > 0 ? Math.min(...seen) : 1;
  let hi = seen.length > 0 ? Math.max(...seen) : 10;
  if (axis.log) {
    // A little room around the data, so no marker sits on the frame.
    [lo, hi] = lo === hi ? [lo / 2, hi * 2] : [lo / 1.25, hi * 1.25];
    const ticks = axis.ticks ? [...axis.ticks] : logTicks(lo, hi, niceStep(hi - lo, 4));
    const [a, b] = [Math.log10(lo), Math.log10(hi)];
    return { at: (v) => from + ((Math.log10(v) - a) / (b - a)) * (to - from), ticks: ticks.filter((t) => t >= lo && t <= hi), accepts };
  }
  if (lo > 0 && !axis.ticks) lo = 0; // amounts are read against zero
  if (lo === hi) hi = lo + 1;
  const step = niceStep(hi - lo, 5);
  hi = axis.ticks ? hi + (hi - lo) * 0.05 : Math.ceil(hi / step - 1e-9) * step;
  const ticks = axis.ticks ? [...axis.ticks] : Array.from({ length: Math.round((hi - lo) / step) + 1 }, (_, i) => lo + i * step);
  return { at: (v) => from + ((v - lo) / (hi - lo)) * (to - from), ticks, accepts };
}

/**
 * 1, 2, 5 × 10ⁿ inside [lo, hi]; only the powers of ten when that would crowd the axis; multiples
 * of `step` when the range is too narrow for two of them.
 */
function logTicks(lo: number, hi: number, step: number): number[] {
  const all: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
    for (const k of [1, 2, 5]) {
      const t = k * 10 ** e;
      if (t >= lo && t <= hi) all.push(Number(t.toPrecision(1)));
    }
  const decades = all.filter((t) => /^1/.test(String(t)));
  if (all.length < 2) return Array.from({ length: Math.floor(hi / step) - Math.ceil(lo / step) + 1 }, (_, i) => (Math.ceil(lo / step) + i) * step);
  return all.length > 9 && decades.length >= 2 ? decades : all;
}

/** The chart as an SVG document. */
export function svgChart(chart: Chart): string {
  const x = scale(
    chart.x,
    chart.series.flatMap((s) => s.points.map((p) => p[0])),
    PLOT.left,
    PLOT.right,
  );
  const y = scale(
    chart.y,
    chart.series.flatMap((s) => s.points.map((p) => p[1])),
    PLOT.bottom,
    PLOT.top,
  );
  const fx = chart.x.format ?? compact;
  const fy = chart.y.format ?? compact;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeXml(chart.title)}">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<g font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="#222222">`,
    `<text x="${PLOT.left}" y="26" font-size="16" font-weight="600">${escapeXml(chart.title)}</text>`,
  ];
  if (chart.subtitle) out.push(`<text x="${PLOT.left}" y="46" fill="#555555">${escapeXml(chart.subtitle)}</text>`);
  for (const t of x.ticks) {
    const px = x.at(t).toFixed(1);
    out.push(`<line x1="${px}" y1="${PLOT.top}" x2="${px}" y2="${PLOT.bottom}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${px}" y="${PLOT.bottom + 18}" text-anchor="middle">${escapeXml(fx(t))}</text>`);
  }
  for (const t of y.ticks) {
    const py = y.at(t).toFixed(1);
    out.push(`<line x1="${PLOT.left}" y1="${py}" x2="${PLOT.right}" y2="${py}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${py}" dy="4" text-anchor="end">${escapeXml(fy(t))}</text>`);
  }
  out.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#888888"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 44}" text-anchor="middle">${escapeXml(chart.x.label + (chart.x.log ? ' (log scale)' : ''))}</text>`,
    `<text transform="translate(18 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.y.label + (chart.y.log ? ' (log scale)' : ''))}</text>`,
  );
  for (const [i, series] of chart.series.entries()) out.push(...seriesMarks(series, COLORS[(series.colorOf ?? i) % COLORS.length]!, x, y, i));
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}

/** A series' line and markers, and its legend entry (the `index`th, right of the plot). */
function seriesMarks(series: Series, color: string, x: Scale, y: Scale, index: number): string[] {
  const points = series.points
    .filter(([px, py]) => x.accepts(px) && y.accepts(py))
    .map(([px, py]) => [x.at(px), y.at(py)] as const)
    .sort((a, b) => a[0] - b[0]);
  const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
  const hollow = series.line === false;
  const marker = (px: number, py: number) =>
    `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="${hollow ? 4.5 : 3.5}" fill="${hollow ? '#ffffff' : color}" stroke="${color}" stroke-width="${hollow ? 2 : 1}"/>`;
  const out: string[] = [`<g aria-label="${escapeXml(series.name)}">`];
  if (!hollow && points.length > 1)
    out.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}"/>`,
    );
  for (const [px, py] of points) out.push(marker(px, py));
  const ly = PLOT.top + 8 + index * 22;
  const lx = PLOT.right + 18;
  if (!hollow) out.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 28}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`);
  out.push(marker(lx + 14, ly), `<text x="${lx + 36}" y="${ly}" dy="4">${escapeXml(series.name)}</text>`, '</g>');
  return out;
}
