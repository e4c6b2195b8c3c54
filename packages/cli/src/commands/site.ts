/**
 * `skillmount ls --well-known <site>` and `get --well-known <site> <name> [file]`: a site's
 * `/.well-known/agent-skills/index.json` instead of an MCP endpoint, every artifact checked
 * against the digest the index publishes before anything is shown.
 */
import { skillVersion, visibleLine } from '@skillmount/core';
import { fetchSkill, indexUrlOf, readIndex, type SiteSkill } from '../site.js';
import { complain, field, say, sayContent, sayJson } from '../terminal/print.js';
import { formatBytes, plural } from '../terminal/words.js';
import type { TrustFlags } from '../trust-flags.js';
import { refused, siteVerdict, type Verdict, verdictCell, verdictCounts, verdictNote, verdictProblem } from '../verdicts.js';

interface SiteRow {
  name: string;
  version?: string;
  type: string;
  files: number;
  bytes: number;
  digest: string;
  description: string;
  /** With --trust: the verdict on the artifact's skill.oms.sig. */
  signature?: Verdict;
}

/** Every skill of the index, each downloaded and verified (with `trust`, its signature too); 1 when any failed or was refused. */
export async function lsSite(site: string, headers: Record<string, string>, json: boolean, trust?: TrustFlags): Promise<number> {
  const indexUrl = indexUrlOf(site);
  const { entries, invalid } = await readIndex(indexUrl, headers);
  const rows: SiteRow[] = [];
  let failed = 0;
  for (const entry of entries) {
    let skill: SiteSkill;
    try {
      skill = await fetchSkill(indexUrl, entry, headers);
    } catch (error) {
      complain(`skillmount: refused: ${field((error as Error).message)}`);
      failed++;
      continue;
    }
    const unpacked = [...skill.files.values()].reduce((n, bytes) => n + bytes.byteLength, 0);
    // The index's version, under the policy a SKILL.md's metadata.version is shown by.
    const version = skillVersion({ metadata: { version: entry.version } });
    rows.push({
      name: entry.name,
      ...(version !== undefined ? { version } : {}),
      type: entry.type,
      files: skill.files.size,
      bytes: unpacked,
      digest: entry.digest,
      description: entry.description,
      ...(trust ? { signature: await siteVerdict(entry.name, skill.files, trust.keys) } : {}),
    });
  }
  const verdicts = rows.flatMap((r) => (r.signature ? [r.signature] : []));
  const refusedCount = trust ? verdicts.filter((v) => refused(v, trust)).length : 0;
  for (const why of invalid) complain(`skillmount: ${indexUrl.href}: ${why}, skipped (the installer skips it too)`);
  if (json) sayJson(rows);
  else {
    // A VERSION column only when an entry names one, as `ls` over MCP.
    const versioned = rows.some((r) => r.version !== undefined);
    const table = [
      ['NAME', ...(versioned ? ['VERSION'] : []), 'TYPE', 'FILES', 'SIZE', ...(trust ? ['SIGNATURE'] : []), 'DESCRIPTION'],
      ...rows.map((r) => [
        field(r.name),
        ...(versioned ? [field(r.version ?? '-')] : []),
        r.type,
        String(r.files),
        formatBytes(r.bytes),
        ...(r.signature ? [verdictCell(r.signature)] : []),
        description(r.description),
      ]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table) say(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
    for (const r of rows) {
      const problem = trust && r.signature && verdictProblem(r.signature, trust);
      if (problem) complain(`skillmount: ${field(r.name)}: ${problem}`);
    }
    const counts = trust ? verdictCounts(verdicts, refusedCount) : '';
    complain(`${plural(rows.length, 'skill')}, every digest verified${failed > 0 ? `; ${failed} refused` : ''}${counts ? `; signatures: ${counts}` : ''}`);
  }
  return failed > 0 || refusedCount > 0 ? 1 : 0;
}

/** One file of one skill (SKILL.md by default), from its verified artifact (with `trust`, its signature verified first), on stdout. */
export async function getSite(site: string, name: string, file: string | undefined, headers: Record<string, string>, trust?: TrustFlags): Promise<number> {
  const indexUrl = indexUrlOf(site);
  const { entries } = await readIndex(indexUrl, headers);
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    complain(`skillmount: no skill named ${JSON.stringify(name)} in ${field(indexUrl.href)}. Run "skillmount ls --well-known ${field(site)}" to see the names`);
    return 1;
  }
  let skill: SiteSkill;
  try {
    skill = await fetchSkill(indexUrl, entry, headers);
  } catch (error) {
    complain(`skillmount: refused: ${field((error as Error).message)}`);
    return 1;
  }
  const verdict = trust && (await siteVerdict(name, skill.files, trust.keys));
  const note = verdict && verdictNote(verdict, trust);
  if (verdict && refused(verdict, trust)) {
    complain(`skillmount: refused (${verdict.state === 'invalid' ? verdict.code : verdict.state}): ${field(name)}: ${note}`);
    return 1;
  }
  const path = file ?? 'SKILL.md';
  const bytes = skill.files.get(path);
  if (!bytes) {
    complain(
      `skillmount: not found: ${field(name)} has no file ${JSON.stringify(path)}; it has ${[...skill.files.keys()].map((p) => JSON.stringify(p)).join(', ')}`,
    );
    return 1;
  }
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  sayContent(bytes, text);
  if (note) complain(`skillmount: ${field(name)}: ${note}`);
  return 0;
}

/** A description as a table cell: one line, nothing a reader cannot see, at most 80 characters; escaped besides. */
const description = (text: string): string => field(visibleLine(text, { maxGraphemes: 80 }));
