import { CST, Lexer, Parser, type LineCounter } from 'yaml';
import { MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_NODES } from './limits.js';

export type TokensResult = { ok: true; tokens: CST.Token[] } | { ok: false; error: string };

const isCollection = (token: CST.Token) => token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';

const tooDeep = (line: number) =>
  `the frontmatter nests mappings and lists more than ${MAX_FRONTMATTER_DEPTH} levels deep (the limit) at SKILL.md line ${line}. Flatten it`;
const tooMany = (line: number) =>
  `the frontmatter has more than ${MAX_FRONTMATTER_NODES} YAML nodes (keys, ` +
  `values and list items; the limit) by SKILL.md line ${line}. Keep it to a few short fields`;

// Lexemes that each start one node of the tree (a block scalar's content follows a SCALAR marker of its own).
const NODE_LEXEMES = new Set<string | null>(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'alias', 'flow-map-start', 'flow-seq-start']);

/**
 * The parser's token tree (CST) of `source`, refused when it nests deeper than
 * MAX_FRONTMATTER_DEPTH or holds more than MAX_FRONTMATTER_NODES nodes, before any document is
 * built from it (building recurses once per level). The parser is driven one lexeme at a time so
 * that a text over either bound is refused as soon as that shows, not after the whole text.
 * `lines` must be new: it learns the line starts as the parser goes; `lineOf` reads it for messages.
 */
export function boundedTokens(source: string, lines: LineCounter, lineOf: (offset: number) => number): TokensResult {
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0); // as Parser.parse() does before the first lexeme
  const tokens: CST.Token[] = [];
  let nodes = 0; // at most the tree's count: block collections have no lexeme of their own
  for (const lexeme of new Lexer().lex(source)) {
    if (NODE_LEXEMES.has(CST.tokenType(lexeme)) && ++nodes > MAX_FRONTMATTER_NODES) return { ok: false, error: tooMany(lineOf(parser.offset)) };
    for (const token of parser.next(lexeme)) tokens.push(token);
    // The parser's stack is the path of tokens still open: its collections are nested in one another.
    if (parser.stack.length > MAX_FRONTMATTER_DEPTH) {
      const open = parser.stack.filter(isCollection);
      if (open.length > MAX_FRONTMATTER_DEPTH) return { ok: false, error: tooDeep(lineOf(open.at(-1)!.offset)) };
    }
  }
  for (const token of parser.end()) tokens.push(token);
  const problem = treeProblem(tokens, lineOf);
  return problem ? { ok: false, error: problem } : { ok: true, tokens };
}

/**
 * Depth and node count of the finished tree, walked with an explicit stack (it may still be deep:
 * a tree is only cut short above while its collections are open).
 */
function treeProblem(tokens: readonly CST.Token[], lineOf: (offset: number) => number): string | undefined {
  const pending: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  let nodes = 0;
  while (pending.length > 0) {
    const { token, depth } = pending.pop()!;
    if (token.type === 'document') {
      if (token.value) pending.push({ token: token.value, depth });
      continue;
    }
    if (++nodes > MAX_FRONTMATTER_NODES) return tooMany(lineOf(token.offset));
    if (!isCollection(token)) continue;
    if (depth + 1 > MAX_FRONTMATTER_DEPTH) return tooDeep(lineOf(token.offset));
    for (const item of (token as CST.BlockMap | CST.BlockSequence | CST.FlowCollection).items) {
      if (item.key) pending.push({ token: item.key, depth: depth + 1 });
      if (item.value) pending.push({ token: item.value, depth: depth + 1 });
    }
  }
  return undefined;
}
