import { SkillVerificationError } from '@skillmount/core/client';
import { connectSkills, headerOptions } from '../connect.js';
import { complain, field, sayContent } from '../terminal/print.js';
import { UsageError } from '../usage.js';
import { parseArgs } from 'node:util';

/**
 * `skillmount get <url> <skill-uri> [file]`: one verified file on stdout (the skill's SKILL.md by
 * default; `file` relative to the skill folder, as SKILL.md would link it). A refusal is printed
 * on stderr with its reason, and the exit code is 1.
 */
export async function get(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { header: { type: 'string', multiple: true } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [url, skillUri, file, ...extra] = parsed.positionals;
  if (!url || !skillUri || extra.length > 0) throw new UsageError('expected <url> <skill-uri> [file]');
  const { skills, close } = await connectSkills(url, headerOptions(parsed.values.header));
  try {
    const { skill } = await skills.get(skillUri);
    const result = await skills.read(skill, file);
    sayContent(result.bytes, result.text);
    if (!result.verified) complain(`skillmount: ${field(result.uri)} is part of a "dynamic" skill: its content could not be verified by digest`);
    return 0;
  } catch (error) {
    if (error instanceof SkillVerificationError) {
      complain(`skillmount: refused (${error.reason}): ${error.message}`);
      return 1;
    }
    const code = (error as { code?: unknown }).code;
    if (code === -32602) {
      complain(`skillmount: not found: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  } finally {
    await close();
  }
}
