/** The two parts of a SKILL.md: the YAML between the `---` fences, and the markdown after. */
export interface SplitSkillMd {
  yaml: string;
  body: string;
}

/** `---` and nothing after it but spaces, tabs and a carriage return. */
function isFence(line: string): boolean {
  if (!line.startsWith('---')) return false;
  // A loop, not /[ \t\r]+$/: that pattern takes quadratic time on a long run of spaces that ends in anything else.
  for (let i = 3; i < line.length; i++) if (line[i] !== ' ' && line[i] !== '\t' && line[i] !== '\r') return false;
  return true;
}

/**
 * Split SKILL.md text (a leading BOM and CRLF line ends tolerated); undefined when it does not
 * begin with a `---` line followed later by a closing `---` line.
 */
export function splitFrontmatter(text: string): SplitSkillMd | undefined {
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstEnd = s.indexOf('\n');
  if (firstEnd < 0 || !isFence(s.slice(0, firstEnd))) return undefined;
  let start = firstEnd + 1;
  while (start <= s.length) {
    const end = s.indexOf('\n', start);
    const line = s.slice(start, end < 0 ? s.length : end);
    if (isFence(line)) return { yaml: s.slice(firstEnd + 1, start), body: end < 0 ? '' : s.slice(end + 1) };
    if (end < 0) return undefined;
    start = end + 1;
  }
  return undefined;
}
