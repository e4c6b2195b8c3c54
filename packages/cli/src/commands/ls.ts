import { checkLimits } from '@skillmount/core/client';
import { skillVersion, visibleLine } from '@skillmount/core';
import { connectSkills, headerOptions } from '../connect.js';
import { FLAGS } from '../flags.js';
import { complain, field, say, sayJson } from '../terminal/print.js';
import { parseCommand } from '../usage.js';
import { lsSite } from './site.js';
import { formatBytes, plural } from '../terminal/words.js';
import { trustFlags } from '../trust-flags.js';
import { refused, serverVerdict, type Verdict, verdictCell, verdictCounts, verdictProblem } from '../verdicts.js';

/**
 * `skillmount ls <url>`: every skill a server lists, with its file count and size; with `--trust`,
 * each skill's signature verdict too, and exit 1 when a client with those keys (and
 * `--require-signature`) would refuse a skill.
 */
export async function ls(argv: string[]): Promise<number> {
  const { values, location } = parseCommand(argv, FLAGS.ls, 'endpoint URL');
  const trust = await trustFlags({ trust: values.trust as string[] | undefined, 'require-signature': values['require-signature'] });
  const headers = headerOptions(values.header as string[] | undefined);
  if (values['well-known']) return lsSite(location, headers, values.json === true, trust);
  const { skills, close } = await connectSkills(location, headers, trust ? { trustedKeys: trust.keys } : {});
  try {
    if (!skills.supported) {
      complain(`skillmount: ${field(location)} does not declare the skills extension (io.modelcontextprotocol/skills)`);
      return 1;
    }
    const listing = await skills.list();
    const rows = listing.skills.map((s) => {
      const files = s.resources === 'dynamic' ? undefined : s.resources;
      const version = skillVersion(s.frontmatter);
      return {
        uri: s.uri,
        name: s.frontmatter.name,
        ...(version !== undefined ? { version } : {}),
        description: s.frontmatter.description,
        files: files?.length ?? 'dynamic',
        bytes: files ? files.reduce((n, r) => n + r.size, 0) : ('dynamic' as const),
        overLimit: checkLimits(s)?.message,
      };
    });
    // One skill at a time: each verdict reads at most one small file, and is kept per skill version by the client.
    const verdicts: Verdict[] = [];
    if (trust) for (const skill of listing.skills) verdicts.push(await serverVerdict(skills, skill));
    const failed = trust ? verdicts.filter((v) => refused(v, trust)).length : 0;
    if (values.json) {
      sayJson(trust ? rows.map((row, i) => ({ ...row, signature: verdicts[i] })) : rows);
      return failed > 0 ? 1 : 0;
    }
    // A VERSION column only when a skill names one: a listing without versions reads as it always has.
    const versioned = rows.some((r) => r.version !== undefined);
    // A SIGNATURE column only with --trust: a listing without keys reads as it always has.
    const table = [
      ['NAME', ...(versioned ? ['VERSION'] : []), 'FILES', 'SIZE', ...(trust ? ['SIGNATURE'] : []), 'URI', 'DESCRIPTION'],
      ...rows.map((r, i) => [
        field(r.name),
        ...(versioned ? [field(r.version ?? '-')] : []),
        String(r.files),
        size(r.bytes),
        ...(trust ? [verdictCell(verdicts[i]!)] : []),
        field(r.uri),
        description(r.description),
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table) say(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
    for (const r of rows) if (r.overLimit) complain(`skillmount: ${field(r.uri)}: ${r.overLimit}`);
    rows.forEach((r, i) => {
      const problem = trust && verdictProblem(verdicts[i]!, trust);
      if (problem) complain(`skillmount: ${field(r.uri)}: ${problem}`);
    });
    const counts = trust ? verdictCounts(verdicts, failed) : '';
    complain(`${plural(rows.length, 'skill')}${counts ? `; signatures: ${counts}` : ''}`);
    return failed > 0 ? 1 : 0;
  } finally {
    await close();
  }
}

const size = (bytes: number | 'dynamic') => (bytes === 'dynamic' ? 'dynamic' : formatBytes(bytes));

/** A description as a table cell: one line, nothing a reader cannot see, at most 80 characters; escaped besides. */
const description = (text: string): string => field(visibleLine(text, { maxGraphemes: 80 }));
