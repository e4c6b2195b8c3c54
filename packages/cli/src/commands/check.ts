import { CatalogError, SkillCatalog, type SkillWarning } from '@skillmount/core';
import { FLAGS } from '../flags.js';
import { openStorage, parseLocation } from '../location.js';
import { complain, field, say, sayJson } from '../terminal/print.js';
import { parseCommand } from '../usage.js';
import { checkSignatures, signatureLine } from '../signatures.js';
import { trustFlags } from '../trust-flags.js';
import { formatBytes, plural, warningText } from '../terminal/words.js';
import { sortFindings, warningLines } from '../terminal/findings.js';

/**
 * `skillmount check <location>`: load the tree (a folder, an S3 prefix or a PostgreSQL namespace)
 * as a server would and print every problem, and the warnings (invisible characters in a SKILL.md).
 * Exit 1 when there is a problem, or with `--strict` a warning.
 */
export async function check(argv: string[]): Promise<number> {
  const { values, location } = parseCommand(argv, FLAGS.check, 'location');
  const keys = (await trustFlags({ trust: values.trust as string[] | undefined }))?.keys ?? [];
  const opened = await openStorage(parseLocation(location), values.table !== undefined ? { table: values.table } : {});
  const found: SkillWarning[] = [];
  try {
    let catalog: SkillCatalog;
    try {
      catalog = await SkillCatalog.load(opened.storage, {
        pageSize: Infinity,
        ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
        onWarning: (w) => found.push(w),
      });
    } catch (error) {
      throw error instanceof CatalogError ? error : opened.explain(error);
    }
    let signatures;
    try {
      const prefixSegments = values.prefix ? values.prefix.split('/').filter(Boolean).length : 0;
      signatures = await checkSignatures(catalog, prefixSegments, keys);
    } finally {
      catalog.close();
    }
    // An invalid signature fails the check; an untrusted one only when keys were given to trust.
    const badSignatures = signatures.filter((f) => f.result.state === 'invalid' || (f.result.state === 'untrusted-key' && keys.length > 0));
    const { problems, warnings } = sortFindings(found);
    // A skill over the per-skill limits is served (hosts may refuse it), but it is not valid: its warning says why.
    const overLimit = new Set(problems.filter((p) => p.code === 'limit' && p.uri !== undefined).map((p) => p.uri));
    const skills = catalog.entries
      .filter((e) => !overLimit.has(e.uri))
      .map((e) => ({
        uri: e.uri,
        files: e.resources === 'dynamic' ? 0 : e.resources.length,
        bytes: e.resources === 'dynamic' ? 0 : e.resources.reduce((n, r) => n + r.size, 0),
      }));
    const strict = values.strict === true;
    if (values.json) {
      sayJson({ location: opened.label, skills, problems, warnings, signatures: signatures.map((f) => ({ skill: f.skill, uri: f.uri, ...f.result })) });
    } else {
      for (const p of problems) say(warningText(p, opened.label));
      for (const line of warningLines(warnings, opened.label)) say(line);
      for (const s of skills) say(`ok ${field(s.uri)} (${plural(s.files, 'file')}, ${formatBytes(s.bytes)})`);
      for (const f of signatures) say(signatureLine(f));
      const warned = warnings.length > 0 ? `, ${plural(warnings.length, 'warning')}${strict ? ' (--strict: they fail the check)' : ''}` : '';
      say(`${plural(skills.length, 'skill')} valid, ${plural(problems.length, 'problem')}${warned} in ${opened.label}`);
    }
    return problems.length > 0 || badSignatures.length > 0 || (strict && warnings.length > 0) ? 1 : 0;
  } catch (error) {
    if (error instanceof CatalogError) {
      complain(error.message);
      return 1;
    }
    throw error;
  } finally {
    await opened.close();
  }
}
