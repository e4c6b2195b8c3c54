import type MarkdownIt from 'markdown-it';

// The headings TypeDoc writes above each part of a symbol's page: labels, not names anyone searches for.
const LABELS = [
  'Parameters',
  'Returns',
  'Example',
  'Examples',
  'Throws',
  'Properties',
  'Methods',
  'Accessors',
  'Constructors',
  'Constructor',
  'Extends',
  'Extended by',
  'Implements',
  'Implementation of',
  'Inherited from',
  'Overrides',
  'Type Parameters',
  'Type declaration',
  'Indexable',
  'Get Signature',
  'Set Signature',
  'Call Signature',
  'See',
  'Interfaces',
  'Functions',
  'Classes',
  'Variables',
  'Type Aliases',
  'References',
];
const LABEL_HEADING = new RegExp(`^#{2,6} (?:${LABELS.join('|')})[ \\t]*$`, 'gm');
const FENCE = /^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm;

/**
 * What the local search indexes of a page. The guide and reference pages: all of it, as VitePress
 * does. The API reference (docs/api/, one page per export, generated from the doc comments): its
 * names, prose and tables, without the code blocks (each symbol's signature and its example, which
 * the pages' names and prose already cover) and without TypeDoc's label headings ("Returns",
 * "Throws", "Parameters"…), whose text joins the symbol's own entry rather than being an entry of
 * its own. Indexed whole, the API pages made 1,500 of the index's 1,680 entries and a search index
 * of 800 kB (over Vite's 500 kB chunk warning) that every visitor who opens the search downloads.
 */
export function searchRender(src: string, env: { relativePath: string; frontmatter?: { search?: boolean } }, md: MarkdownIt): string {
  const api = env.relativePath.startsWith('api/');
  const html = md.render(api ? withoutInherited(src).replace(FENCE, '').replace(LABEL_HEADING, '') : src, env);
  return env.frontmatter?.search === false ? '' : html;
}

/**
 * The index leaves out the words nearly every section has ("the", "of", "is", "when", "not"…): a
 * third of the index, and no use to find anything; a query's other words still match. The `=` of
 * the code in tables is no word either. Also `lt`, `gt`, `amp`,
 * `quot` and `39`, the leftovers of `&lt;` and the like in the indexed text. VitePress runs this on
 * the query too, in the browser, where it is rebuilt from its source text: it may use nothing
 * from outside its own body.
 */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return /^(?:a|about|after|all|also|an|and|any|are|as|at|be|been|before|being|both|but|by|can|do|does|each|every|for|from|has|have|here|how|if|in|into|is|it|its|just|may|must|never|no|not|nothing|of|on|once|one|only|or|other|our|out|own|per|re|s|same|so|than|that|the|their|them|then|there|these|they|this|those|to|up|us|was|we|were|what|when|where|which|will|with|without|you|your|=|lt|gt|amp|quot|39)$/.test(
    word,
  )
    ? null
    : word;
}

/**
 * A TypeDoc page without what it inherits: a member section (`### name`) with an "Inherited from"
 * part, and a table row whose "Inherited from" cell names where it comes from. They are indexed on
 * the page that declares them (the options every adapter shares, once, not once per adapter; an
 * error's `stack` and `cause`, on Node's `Error`, not at all).
 */
export function withoutInherited(src: string): string {
  const kept: string[] = [];
  let member: string[] | undefined;
  let inheritedColumn = -1;
  const endMember = () => {
    if (member && !member.some((line) => /^#{4,6} Inherited from\s*$/.test(line))) kept.push(...member);
    member = undefined;
  };
  for (const line of src.split('\n')) {
    if (/^#{1,3} /.test(line)) endMember();
    if (/^### /.test(line)) member = [];
    const cells = line.startsWith('|') ? line.split(/(?<!\\)\|/).map((cell) => cell.trim()) : undefined;
    if (cells === undefined) inheritedColumn = -1;
    else if (cells.includes('Inherited from')) inheritedColumn = cells.indexOf('Inherited from');
    else if (inheritedColumn !== -1 && !/^[-\s]*$/.test(cells[inheritedColumn] ?? '-')) continue;
    (member ?? kept).push(line);
  }
  endMember();
  return kept.join('\n');
}
