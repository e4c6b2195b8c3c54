/** The run's SVG charts, from the same results as its tables; a chart whose case did not run is left out. */
import type { BuildResult } from './cases/build.js';
import type { HttpResult } from './cases/http.js';
import type { MemoryResult } from './cases/memory.js';
import { svgChart, type Series } from './chart.js';
import type { CorpusSize } from './corpus.js';

export interface ChartInputs {
  builds: readonly BuildResult[];
  https: readonly HttpResult[];
  memories: readonly MemoryResult[];
  /** The wide corpora among the builds: drawn as points of their own, not on the line of the others. */
  wide: readonly CorpusSize[];
  /** What run drew them (mode, date, machine). */
  subtitle: string;
}

export interface ChartFile {
  name: string;
  title: string;
  svg: string;
}

const MIB = 1024 * 1024;
// One colour per side on every chart: ours blue, the SDK v2 red (the chart's palette order).
const COLOR = { ours: 0, sdk: 1 } as const;
const SERVER_COLOR: Record<string, number> = { 'fastify-stateless': 0, 'sdk-v2': 1, 'fastify-session': 2, 'express-stateless': 3, 'express-session': 4 };
const fileName = (store: string) => `build-${store.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.svg`;

function buildCharts({ builds, wide, subtitle }: ChartInputs): ChartFile[] {
  const charts: ChartFile[] = [];
  for (const store of new Set(builds.map((b) => b.store))) {
    const of = builds.filter((b) => b.store === store);
    const isWide = (b: BuildResult) => wide.some((w) => w.label === b.size);
    const series: Series[] = [
      { name: 'ours', points: of.filter((b) => !isWide(b)).map((b) => [b.files, b.ours]) },
      { name: 'SDK v2', points: of.filter((b) => !isWide(b)).map((b) => [b.files, b.theirs]), dashed: true },
    ];
    for (const w of wide) {
      const b = of.find((x) => x.size === w.label);
      if (!b) continue;
      series.push(
        { name: `ours, ${w.label}`, points: [[b.files, b.ours]], line: false, colorOf: COLOR.ours },
        { name: `SDK v2, ${w.label}`, points: [[b.files, b.theirs]], line: false, colorOf: COLOR.sdk },
      );
    }
    const title = `Catalog build from ${store === 'folder' ? 'a folder' : store}: time against files`;
    charts.push({
      name: fileName(store),
      title,
      svg: svgChart({
        title,
        subtitle,
        x: { label: 'files in the corpus', log: true },
        y: { label: 'build time, ms (median)', log: true },
        series,
      }),
    });
  }
  return charts;
}

function httpChart({ https, subtitle }: ChartInputs): ChartFile[] {
  const h = https.find((r) => r.storage === 'folder');
  if (!h) return [];
  const title = `Verified reads over HTTP against requests in flight (folder, ${h.size})`;
  return [
    {
      name: 'http-in-flight.svg',
      title,
      svg: svgChart({
        title,
        subtitle,
        x: { label: 'requests in flight', log: true, ticks: h.sides[0]!.sweep.map((p) => p.inFlight) },
        y: { label: 'verified reads/s (median)' },
        series: h.sides.map((side) => ({
          name: side.kind,
          points: side.sweep.map((p) => [p.inFlight, p.read] as const),
          dashed: side.kind === 'sdk-v2',
          colorOf: SERVER_COLOR[side.kind],
        })),
      }),
    },
  ];
}

function memoryChart({ memories, subtitle }: ChartInputs): ChartFile[] {
  if (memories.length === 0) return [];
  const points = (pick: (m: MemoryResult) => number) => memories.map((m) => [m.files, pick(m) / MIB] as const);
  const title = 'Peak RSS growth while loading a catalog from a folder, against files';
  return [
    {
      name: 'peak-rss.svg',
      title,
      svg: svgChart({
        title,
        subtitle,
        x: { label: 'files in the corpus', log: true },
        y: { label: 'peak RSS over the RSS before the load, MiB (median)' },
        series: [
          { name: 'ours', points: points((m) => m.ours.peakRssGrowth), colorOf: COLOR.ours },
          { name: 'ours, workerThreads: false', points: points((m) => m.oursInline.peakRssGrowth), colorOf: 2 },
          { name: 'SDK v2', points: points((m) => m.theirs.peakRssGrowth), dashed: true, colorOf: COLOR.sdk },
        ],
      }),
    },
  ];
}

/** Every chart the results allow. */
export function runCharts(inputs: ChartInputs): ChartFile[] {
  return [...buildCharts(inputs), ...httpChart(inputs), ...memoryChart(inputs)];
}
