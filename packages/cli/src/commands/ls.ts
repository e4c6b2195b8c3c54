import { checkLimits } from '@skillmount/core/client';
import { skillVersion, visibleLine } from '@skillmount/core';
import { connectSkills, headerOptions } from '../connect.js';
import { FLAGS } from '../flags.js';
import { complain, field, say, sayJson } from '../terminal/print.js';
import { parseCommand } from '../usage.js';
import { lsSite } from './site.js';
import { formatBytes, plural } from '../terminal/words.js';

/** `skillmount ls <url>`: every skill a server lists, with its file count and size. */
export async function ls(argv: string[]): Promise<number> {
  const { values, location } = parseCommand(argv, FLAGS.ls, 'endpoint URL');
  if (values['well-known']) return lsSite(location, headerOptions(values.header as string[] | undefined), values.json === true);
  const { skills, close } = await connectSkills(location, headerOptions(values.header as string[] | undefined));
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
    if (values.json) {
      sayJson(rows);
      return 0;
    }
    // A VERSION column only when a skill names one: a listing without versions reads as it always has.
    const versioned = rows.some((r) => r.version !== undefined);
    const table = [
      ['NAME', ...(versioned ? ['VERSION'] : []), 'FILES', 'SIZE', 'URI', 'DESCRIPTION'],
      ...rows.map((r) => [
        field(r.name),
        ...(versioned ? [field(r.version ?? '-')] : []),
        String(r.files),
        size(r.bytes),
        field(r.uri),
        description(r.description),
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table) say(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
    for (const r of rows) if (r.overLimit) complain(`skillmount: ${field(r.uri)}: ${r.overLimit}`);
    complain(plural(rows.length, 'skill'));
    return 0;
  } finally {
    await close();
  }
}

const size = (bytes: number | 'dynamic') => (bytes === 'dynamic' ? 'dynamic' : formatBytes(bytes));

/** A description as a table cell: one line, nothing a reader cannot see, at most 80 characters; escaped besides. */
const description = (text: string): string => field(visibleLine(text, { maxGraphemes: 80 }));
