/**
 * The one SKILL.md builder of the tests. The description is written as a YAML double-quoted
 * scalar (JSON's quoting), so any text — colons, `#`, emoji — parses back to itself.
 */
export interface SkillMdOptions {
  /** `The <name> skill.` unless given. */
  description?: string;
  /** Extra front-matter lines, each ending in `\n` (for example `license: MIT\n`). */
  frontmatter?: string;
  /** Everything after the closing `---` line; `# <name>\n` unless given. */
  body?: string;
}

/** A SKILL.md for skill `name`; a string second argument is the description alone. */
export function skillMd(name: string, options: string | SkillMdOptions = {}): string {
  const { description = `The ${name} skill.`, frontmatter = '', body = `# ${name}\n` } = typeof options === 'string' ? { description: options } : options;
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${frontmatter}---\n${body}`;
}
