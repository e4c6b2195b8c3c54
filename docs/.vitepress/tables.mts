import type MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

/**
 * Tables that fit their column. The option tables hold a short name, a type, a default and a long
 * meaning; left to the browser (`table-layout: auto`, or VitePress's own `display: block` box that
 * scrolls), the meaning was cut off at the column's edge at 1280 px, or the short columns were
 * squeezed to a letter a line. So each table's columns are sized here, from what they hold, as
 * percentages laid out with `table-layout: fixed` (style.css): a column of short names keeps them
 * whole on one line, the prose column gets the rest. Inside the cells of the other columns, `<wbr>`
 * marks where a long identifier may break (after `.`, `/`, `(`, `<`, `|`, `,`, `_`, `-`, and between
 * the humps of a camelCase name), so a narrow column breaks `SkillsAdapterOptions.allowedHosts`
 * after the dot rather than anywhere. Each body cell carries its column's header as `data-label`,
 * and tables of three columns or more `data-stack`: on a phone, style.css shows each row as a card
 * of labelled lines.
 */
export function readableTables(md: MarkdownIt): void {
  md.core.ruler.push('skillmount-tables', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i]?.type !== 'table_open') continue;
      const end = tokens.findIndex((token, at) => at > i && token.type === 'table_close');
      if (end === -1) break;
      layoutTable(tokens, i, end);
      i = end;
    }
  });

  const code = md.renderer.rules.code_inline;
  md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
    const html = code ? code(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
    const token = tokens[idx];
    if (!token?.meta?.[IN_CELL]) return html;
    const escaped = md.utils.escapeHtml(token.content);
    const broken = breakable(token.content, true).map(md.utils.escapeHtml).join('<wbr>');
    return html.replace(escaped, () => broken);
  };
  const text = md.renderer.rules.text;
  md.renderer.rules.text = (tokens, idx, options, env, self) => {
    const html = text ? text(tokens, idx, options, env, self) : md.utils.escapeHtml(tokens[idx]?.content ?? '');
    if (!tokens[idx]?.meta?.[IN_CELL]) return html;
    // A dot or slash between names (`app.skills`, `storage/path`), not in a number or `e.g.`; or
    // ending the text before a link or code (`[A](…).[b](…)`, which has no break opportunity of its own).
    const next = tokens[idx + 1];
    const joined = next !== undefined && next.type !== 'text' && next.type !== 'softbreak' && next.type !== 'hardbreak';
    return html.replace(/(?<=\w\w)([./])(?=[A-Za-z_])/g, '$1<wbr>').replace(/([./])$/, joined ? '$1<wbr>' : '$1');
  };
  md.renderer.rules.table_open = (tokens, idx, _options, _env, self) => `<table tabindex="0"${self.renderAttrs(tokens[idx] as Token)}>\n`;
}

const IN_CELL = 'skillmountTableCell';

// Characters a code span may break after (not before a digit: `0.1.0` stays whole), and a
// camelCase hump it may break before.
const AFTER = /(?<=[./(<|,_-])(?=[^\s\d./(<|,_\-)>\]])/;
const HUMP = /(?<=[a-z])(?=[A-Z])/;

/** `text` cut where a line may break inside it: after punctuation, and with `humps`, between camelCase humps too. */
function breakable(text: string, humps: boolean): string[] {
  const parts = text.split(new RegExp(`${AFTER.source}${humps ? `|${HUMP.source}` : ''}`));
  return parts.filter((part) => part !== '');
}

/** What a cell shows (its words and code, not its links' addresses or raw HTML such as `<a id=…>`), measured in characters. */
interface Cell {
  text: string;
  /** Its length on one line: a code span's padding counts as two characters more. */
  width: number;
  /** The longest run no line can break inside (at spaces, or after punctuation in code). */
  run: number;
}

function measure(inline: Token | undefined): Cell {
  let text = '';
  let width = 0;
  let run = 0;
  for (const child of inline?.children ?? []) {
    if (child.type === 'text') {
      text += child.content;
      width += child.content.length;
      run = Math.max(run, ...child.content.split(/\s+/).map((word) => word.length));
    } else if (child.type === 'code_inline') {
      text += child.content;
      width += child.content.length + 2;
      run = Math.max(run, ...child.content.split(/\s+/).flatMap((word) => breakable(word, false).map((part) => part.length + 2)));
    } else if (child.type === 'softbreak' || child.type === 'hardbreak') {
      text += ' ';
      width += 1;
    }
  }
  return { text: text.trim(), width, run };
}

interface Column {
  /** The widths of the body cells. */
  widths: number[];
  /** The spaces in the body cells, on average. */
  spaces: number;
  /** The longest run no line can break inside, over the body cells. */
  run: number;
}

// In characters of the cells' 14 px text: the room a table has at 1280 px (the content column is
// 624 px wide there, beside the sidebar and the outline), and what each cell's padding costs.
const ROOM = 85;
const PADDING = 3;
// The prose column (sentences: three spaces or more a cell on average) keeps at least PROSE
// characters a line; beside it, any other column gets room for its cells up to WIDEST characters.
const PROSE = 38;
const WIDEST = 22;

function layoutTable(tokens: Token[], start: number, end: number): void {
  const rows: { cells: Token[]; inlines: (Token | undefined)[]; measured: Cell[] }[] = [];
  for (let i = start; i < end; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'tr_open') rows.push({ cells: [], inlines: [], measured: [] });
    else if (token.type === 'th_open' || token.type === 'td_open') {
      const row = rows.at(-1);
      row?.cells.push(token);
      row?.inlines.push(tokens[i + 1]);
      row?.measured.push(measure(tokens[i + 1]));
    }
  }
  const [head, ...body] = rows;
  if (!head || head.cells.length === 0) return;
  const columns: Column[] = head.measured.map((_, j) => {
    const cells = body.map((row) => row.measured[j] ?? measure(undefined));
    return {
      widths: cells.map((cell) => cell.width),
      spaces: cells.reduce((sum, cell) => sum + (cell.text.match(/\s+/g)?.length ?? 0), 0) / Math.max(cells.length, 1),
      run: Math.max(0, ...cells.map((cell) => cell.run)),
    };
  });
  const { widths, prose } = columnWidths(columns);
  // Identifiers break at `<wbr>` in the columns of names and types; the prose column breaks
  // between words, as prose does.
  for (const row of rows) {
    row.inlines.forEach((inline, j) => {
      if (j === prose) return;
      for (const child of inline?.children ?? []) child.meta = { ...child.meta, [IN_CELL]: true };
    });
  }
  head.cells.forEach((cell, j) => {
    const style = cell.attrGet('style');
    const width = `width: ${widths[j]?.toFixed(1)}%`;
    cell.attrSet('style', style ? `${style}; ${width}` : width);
  });
  for (const row of body) {
    row.cells.forEach((cell, j) => {
      const header = head.measured[j]?.text;
      if (header) cell.attrSet('data-label', header);
      const text = row.measured[j]?.text ?? '';
      // TypeDoc's `-` (no override, not inherited) and an empty cell say nothing on a card.
      if (text === '' || text === '-') cell.attrSet('data-empty', '');
    });
  }
  if (columns.length >= 3) tokens[start]?.attrSet('data-stack', '');
  tokens[start]?.attrSet('data-columns', String(columns.length));
}

/**
 * Percent widths. Each column asks for room for nine in ten of its cells on one line, and at
 * least its longest unbreakable run up to 12 characters. The prose column (of the columns of
 * sentences, the one whose cells are longest on average) gets what the others leave, and at least
 * PROSE characters: beside it, the others ask for WIDEST characters at most, and share what is left
 * in proportion when that leaves it too little. A table without prose shares the room in
 * proportion to what each column asks for.
 */
function columnWidths(columns: Column[]): { widths: number[]; prose: number } {
  const mean = (column: Column) => column.widths.reduce((a, b) => a + b, 0) / Math.max(column.widths.length, 1);
  const prose = columns.reduce((best, column, j) => {
    if (column.spaces < 3) return best;
    const other = columns[best];
    return other === undefined || mean(column) > mean(other) ? j : best;
  }, -1);
  const wants = columns.map((column) => {
    const sorted = [...column.widths].sort((a, b) => a - b);
    const ninth = sorted[Math.ceil(sorted.length * 0.9) - 1] ?? 0;
    return Math.max(ninth, Math.min(column.run, 12), 4) + PADDING;
  });
  if (prose === -1) {
    const total = wants.reduce((a, b) => a + b, 0);
    return { widths: wants.map((want) => (want / total) * 100), prose };
  }
  const capped = wants.map((want, j) => (j === prose ? 0 : Math.min(want, WIDEST + PADDING)));
  const others = capped.reduce((a, b) => a + b, 0);
  const left = ROOM - PROSE - PADDING;
  const given = capped.map((want) => (others > left ? (want * left) / others : want));
  given[prose] = ROOM - given.reduce((a, b) => a + b, 0);
  return { widths: given.map((width) => (width / ROOM) * 100), prose };
}
