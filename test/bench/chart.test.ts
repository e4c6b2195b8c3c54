/** The benchmark's own arithmetic and drawing: the per-skill and per-file fit, and the SVG charts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeXml, svgChart } from '../../bench/chart.js';
import { fitCosts } from '../../bench/fit.js';

test('fitCosts finds the per-skill and per-file costs the build times were made of, and refuses corpora of one shape', () => {
  const corpora = [
    [100, 500],
    [1000, 10_000],
    [2000, 40_000],
    [10_000, 20_000],
  ] as const;
  const fit = fitCosts(corpora.map(([skills, files]) => ({ skills, files, ms: 0.04 * skills + 0.025 * files })));
  assert.ok(fit);
  assert.ok(Math.abs(fit.perSkill - 0.04) < 1e-9, `per skill ${fit.perSkill}`);
  assert.ok(Math.abs(fit.perFile - 0.025) < 1e-9, `per file ${fit.perFile}`);
  assert.ok(fit.worstError < 1e-9);
  // A fixed cost of 50 ms has no term: the smallest corpus shows it as its miss.
  const fixed = fitCosts(corpora.map(([skills, files]) => ({ skills, files, ms: 50 + 0.04 * skills + 0.025 * files })));
  assert.ok(fixed && fixed.worstError > 0.3, `worst miss ${fixed?.worstError}`);
  assert.equal(fitCosts([{ skills: 100, files: 500, ms: 50 }]), undefined);
  // Every corpus with 5 files a skill: skills and files move together, the costs cannot be told apart.
  assert.equal(
    fitCosts([
      { skills: 100, files: 500, ms: 50 },
      { skills: 1000, files: 5000, ms: 400 },
    ]),
    undefined,
  );
});

test('svgChart escapes every text, draws a line per series and a marker per point, and ticks a log axis by powers of ten', () => {
  const svg = svgChart({
    title: 'Build <time> & "files"',
    subtitle: "quick run, 'here'",
    x: { label: 'files', log: true },
    y: { label: 'ms', log: true },
    series: [
      {
        name: 'ours <fast>',
        points: [
          [500, 56],
          [10_000, 296],
          [40_000, 1089],
        ],
      },
      {
        name: 'SDK v2',
        points: [
          [500, 200],
          [10_000, 2315],
          [40_000, 8686],
        ],
        dashed: true,
      },
      { name: 'wide', points: [[20_000, 900]], line: false },
    ],
  });
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.ok(svg.includes('Build &lt;time&gt; &amp; &quot;files&quot;'));
  assert.ok(svg.includes('quick run, &#39;here&#39;'));
  assert.ok(svg.includes('ours &lt;fast&gt;'));
  assert.ok(!svg.includes('<time>') && !svg.includes('<fast>'));
  assert.equal(svg.match(/<polyline /g)?.length, 2, 'a line for each series drawn as one');
  assert.equal(svg.match(/stroke-dasharray/g)?.length, 2, "the dashed series' line and its legend entry");
  // 7 points and one legend marker per series.
  assert.equal(svg.match(/<circle /g)?.length, 7 + 3);
  for (const tick of ['1,000', '10,000', '100', '1,000']) assert.ok(svg.includes(`>${tick}</text>`), `a ${tick} tick`);
  assert.equal(escapeXml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});
