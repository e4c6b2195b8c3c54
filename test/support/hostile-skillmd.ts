/**
 * SKILL.md files that attack the frontmatter parser (key floods, deep nesting, huge scalars,
 * duplicate keys in a large mapping), each with the refusal it must get. Shared by the catalog,
 * HTTP, client and CLI tests. Each text is valid apart from its attack: name and description are
 * right, so only the bound can refuse it.
 */

export interface HostileSkillMd {
  /** What the attack is, for test names. */
  label: string;
  /** The SKILL.md text for a skill named `name`. */
  text(name: string): string;
  /** The refusal it must get. */
  refusal: RegExp;
}

const head = (name: string) => `---\nname: ${name}\ndescription: A hostile skill.\n`;
const end = '---\n# Hostile\n';
const keys = (count: number, indent = '') => {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`${indent}k${i}: v\n`);
  return lines.join('');
};

const FRONTMATTER_SIZE = /the frontmatter is \d+ bytes; the limit is 64 KiB \(65536 bytes\)/;
const SKILL_MD_SIZE = /SKILL\.md is \d+ bytes; the limit is 1 MiB \(1048576 bytes\)/;
const TOO_DEEP = /nests mappings and lists more than 32 levels deep \(the limit\) at SKILL\.md line \d+/;

export const HOSTILE_SKILL_MDS: Record<string, HostileSkillMd> = {
  keys40k: { label: '40 000 keys', text: (name) => head(name) + keys(40_000) + end, refusal: FRONTMATTER_SIZE },
  keys60k: { label: '60 000 keys', text: (name) => head(name) + keys(60_000) + end, refusal: FRONTMATTER_SIZE },
  // 6 KiB: within every size limit, 3000 levels of block sequences.
  blockNesting: { label: '3000-level block nesting', text: (name) => `${head(name)}x:\n${'- '.repeat(3000)}v\n${end}`, refusal: TOO_DEEP },
  // Indented mappings, one more space per level: 4.5 MB, refused on size before anything is parsed.
  indentedNesting: {
    label: '3000-level indented mappings',
    text: (name) => {
      const lines: string[] = [];
      for (let i = 1; i <= 3000; i++) lines.push(`${' '.repeat(i)}a:\n`);
      return `${head(name)}x:\n${lines.join('')}${' '.repeat(3001)}v\n${end}`;
    },
    refusal: SKILL_MD_SIZE,
  },
  flowSeqNesting: { label: '3000-level flow sequences', text: (name) => `${head(name)}x: ${'['.repeat(3000)}${']'.repeat(3000)}\n${end}`, refusal: TOO_DEEP },
  flowMapNesting: { label: '3000-level flow mappings', text: (name) => `${head(name)}x: ${'{a: '.repeat(3000)}${'}'.repeat(3000)}\n${end}`, refusal: TOO_DEEP },
  // 60 KiB: within the size limits, 30 000 list items.
  manyNodes: {
    label: '30 000 list items',
    text: (name) => `${head(name)}x: [${'1,'.repeat(30_000)}]\n${end}`,
    refusal: /more than 10000 YAML nodes .*by SKILL\.md line \d+/,
  },
  // 900 KB, within the SKILL.md size limit: a run of spaces that ends in a letter, which a
  // trailing-space pattern such as /[ \t\r]+$/ takes quadratic time over (hours) while looking for the fences.
  spaceRun: { label: 'a line of 900 000 spaces', text: (name) => `${head(name)}x:${' '.repeat(900_000)}y\n${end}`, refusal: FRONTMATTER_SIZE },
  scalar15MiB: { label: 'a 15 MiB scalar', text: (name) => `---\nname: ${name}\ndescription: ${'a'.repeat(15 * 1024 * 1024)}\n${end}`, refusal: SKILL_MD_SIZE },
  // 4000 keys in one mapping, the first repeated last: fence, name, description and "metadata:" take lines 1-4, the keys 5-4004.
  lateDuplicate: {
    label: 'a duplicate key after 4000 others',
    text: (name) => `${head(name)}metadata:\n${keys(4000, '  ')}  k0: again\n${end}`,
    refusal: /duplicate key "k0" at SKILL\.md line 4005 \(first given at line 5\)/,
  },
};
