import { SEARCH_LIMITS, visibleLine } from '@skillmount/core';
import { connectSkills, headerOptions } from '../connect.js';
import { FLAGS } from '../flags.js';
import { complain, field, say, sayJson } from '../terminal/print.js';
import { integerOption, parseWithPositionals, UsageError } from '../usage.js';
import { plural } from '../terminal/words.js';

/**
 * `skillmount search <url> <query>`: the skills a server serves that match a query, best first,
 * from its `search_skills` tool, or ranked here over its listing when it has none.
 */
export async function search(argv: string[]): Promise<number> {
  const { values, positionals } = parseWithPositionals(argv, FLAGS.search, ['endpoint URL', 'query']);
  const [location, query] = positionals as [string, string];
  if (query.trim() === '') throw new UsageError('the query is empty; give a few words, e.g. skillmount search <url> "refund a payment"');
  const limit = integerOption(values.limit, 'limit', 10, 1);
  if (limit > SEARCH_LIMITS.maxLimit) throw new UsageError(`--limit must be at most ${SEARCH_LIMITS.maxLimit}, got ${limit}`);
  const { skills, close } = await connectSkills(location, headerOptions(values.header as string[] | undefined));
  try {
    if (!skills.supported) {
      complain(`skillmount: ${field(location)} does not declare the skills extension (io.modelcontextprotocol/skills)`);
      return 1;
    }
    const found = await skills.search(query, { limit });
    const rows = found.skills.map((s) => ({ uri: s.uri, name: s.frontmatter.name, description: s.frontmatter.description }));
    if (values.json) {
      sayJson({ skills: rows, ranked: found.ranked, ...(found.nextCursor !== undefined ? { nextCursor: found.nextCursor } : {}) });
      return 0;
    }
    const table = [['NAME', 'URI', 'DESCRIPTION'], ...rows.map((r) => [field(r.name), field(r.uri), description(r.description)])];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    if (rows.length > 0) for (const row of table) say(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
    const by = found.ranked === 'server' ? 'by the server' : 'here (the server has no search_skills tool)';
    complain(`${plural(rows.length, 'skill')} matched, ranked ${by}${found.nextCursor !== undefined ? '; more with a higher --limit' : ''}`);
    return 0;
  } finally {
    await close();
  }
}

/** A description as a table cell: one line, nothing a reader cannot see, at most 80 characters; escaped besides. */
const description = (text: string): string => field(visibleLine(text, { maxGraphemes: 80 }));
