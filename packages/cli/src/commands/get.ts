import { buildSkillUri, parseUri } from '@skillmount/core';
import { JsonRpcErrorCode, SkillSignatureError, SkillVerificationError, type SkillEntry, type SkillsClient } from '@skillmount/core/client';
import { connectSkills, headerOptions } from '../connect.js';
import { FLAGS } from '../flags.js';
import { findSkill, isUriRef, refSegments, skillPathOf } from '../skill-ref.js';
import { complain, field, sayContent } from '../terminal/print.js';
import { plural } from '../terminal/words.js';
import { UsageError } from '../usage.js';
import { getSite } from './site.js';
import { parseArgs } from 'node:util';
import { trustFlags } from '../trust-flags.js';
import { verdictNote } from '../verdicts.js';

/**
 * `skillmount get <url> <name | skill-path | skill-uri> [file]`: one verified file on stdout (the
 * skill's SKILL.md by default; `file` relative to the skill folder, as SKILL.md would link it).
 * A refusal, an unknown skill or a name that several skills share is printed on stderr, and the
 * exit code is 1. With `--trust`, the skill's signature is verified first (and with
 * `--require-signature` required), as a `SkillsClient` with those keys does.
 */
export async function get(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS.get, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [url, ref, file, ...extra] = parsed.positionals;
  if (!url || !ref || extra.length > 0) throw new UsageError('expected <url> <skill> [file], where <skill> is a name, a skill path or a URI');
  const trust = await trustFlags(parsed.values);
  if (parsed.values['well-known']) return getSite(url, ref, file, headerOptions(parsed.values.header), trust);
  // An invalid entry elsewhere in the listing must not stop getting a valid one; the chosen entry is checked again by get().
  const { skills, close } = await connectSkills(url, headerOptions(parsed.values.header), {
    skipInvalid: true,
    ...(trust ? { trustedKeys: trust.keys, requireSignature: trust.require } : {}),
  });
  try {
    const skill = isUriRef(ref) ? (await skills.get(ref)).skill : await resolve(skills, url, ref);
    if (skill === undefined) return 1;
    const result = await skills.read(skill, file);
    sayContent(result.bytes, result.text);
    if (!result.verified) complain(`skillmount: ${field(result.uri)} is part of a "dynamic" skill: its content could not be verified by digest`);
    const note = trust && result.signature && verdictNote(result.signature, trust);
    if (note) complain(`skillmount: ${field((result.skill ?? skill).uri)}: ${note}`);
    return 0;
  } catch (error) {
    if (error instanceof SkillVerificationError) {
      complain(`skillmount: refused (${error.reason}): ${error.message}`);
      return 1;
    }
    if (error instanceof SkillSignatureError) {
      complain(`skillmount: refused (${error.code}): ${error.message}`);
      return 1;
    }
    const code = (error as { code?: unknown }).code;
    if (code === JsonRpcErrorCode.InvalidParams) {
      complain(`skillmount: not found: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  } finally {
    await close();
  }
}

/**
 * The entry of the skill a name or skill path names, from the server's listing; a skill
 * path that no listed skill has is asked for as `skill://<path>/SKILL.md` (servers may serve
 * skills they do not list). Undefined, with the reason on stderr, when there is no single answer.
 */
async function resolve(skills: SkillsClient, url: string, ref: string): Promise<SkillEntry | undefined> {
  if (!skills.supported) {
    complain(`skillmount: ${field(url)} does not declare the skills extension (io.modelcontextprotocol/skills)`);
    return undefined;
  }
  const listing = await skills.list();
  const match = findSkill(ref, listing.skills);
  const shown = JSON.stringify(ref);
  if (match.kind === 'found') {
    if (match.alsoNamed.length > 0) {
      complain(`skillmount: ${shown} is the skill path of ${match.skill.uri}; other skills with that name: ${match.alsoNamed.map((s) => s.uri).join(', ')}`);
    }
    return match.skill;
  }
  if (match.kind === 'ambiguous') {
    const what =
      match.by === 'name'
        ? `${plural(match.skills.length, 'skill')} are named ${shown}`
        : `${plural(match.skills.length, 'skill')} have the skill path ${shown}`;
    complain(`skillmount: ${what}; give the skill path or URI of the one you want:\n${match.skills.map(row).join('\n')}`);
    return undefined;
  }
  const unlisted = parseUri(`skill://${refSegments(ref).join('/')}/SKILL.md`);
  if (unlisted.ok) {
    try {
      return (await skills.get(buildSkillUri(unlisted.segments))).skill;
    } catch (error) {
      if ((error as { code?: unknown }).code !== JsonRpcErrorCode.InvalidParams) throw error;
    }
  }
  const invalid =
    listing.invalid.length > 0
      ? ` (${plural(listing.invalid.length, 'listed entry', 'listed entries')} ${listing.invalid.length === 1 ? 'was' : 'were'} invalid and left out)`
      : '';
  complain(`skillmount: no skill named ${shown} or at that skill path on ${url}${invalid}. Run "skillmount ls ${url}" to see the names and URIs`);
  return undefined;
}

const row = (skill: SkillEntry) => `  ${field(skillPathOf(skill) ?? skill.uri)}  ${field(skill.uri)}`;
