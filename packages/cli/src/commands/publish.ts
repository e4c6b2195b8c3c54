import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FLAGS } from '../flags.js';
import { signerFromFile } from '../signatures.js';
import { signForPublish } from '../publish/sign.js';
import { openStorage, parseLocation } from '../location.js';
import { progress } from '../progress.js';
import { complain, field, say } from '../terminal/print.js';
import { checkFolder } from '../publish/local.js';
import { postgresTarget } from '../publish/postgres-target.js';
import { runPublish } from '../publish/run.js';
import { integerOption, parseWithPositionals, UsageError } from '../usage.js';
import { plural, warningText } from '../terminal/words.js';
import { sortFindings, warningLines } from '../terminal/findings.js';

/**
 * `skillmount publish <folder> <s3://bucket/prefix | postgres://…[#namespace]>`: check the folder
 * as `skillmount check` does, then upload the files of its valid skills that differ from what is
 * stored, and with `--delete` remove stored files that are gone from the folder. With `--sign KEY`,
 * every skill is signed first over exactly the files uploaded (`skill.oms.sig`, also written into
 * the folder unless `--dry-run`), so no republish leaves a stale signature. Exit 0 on
 * success, 1 when the folder has problems (without `--force`), warnings (with `--strict`) or a
 * request fails, 2 for a usage mistake.
 */
export async function publish(argv: string[]): Promise<number> {
  const { values, positionals } = parseWithPositionals(argv, FLAGS.publish, ['folder', 'location']);
  const [from, to] = positionals as [string, string];
  const source = parseLocation(from);
  if (source.kind !== 'folder') throw new UsageError(`publish reads a skills folder; "${source.label}" is not a folder path`);
  const destination = parseLocation(to);
  if (destination.kind === 'folder') {
    throw new UsageError(
      `publish writes to s3://bucket/prefix or postgres://…[#namespace]; ` + `"${destination.label}" is a folder path (serve it directly instead)`,
    );
  }
  // Checked before the folder is, so a mistake on the command line is not reported after the check's output.
  if (values.table !== undefined && destination.kind !== 'postgres')
    throw new UsageError(`--table applies to postgres:// locations only, not to ${destination.label}`);
  const dryRun = values['dry-run'] === true;
  const concurrency = integerOption(values.concurrency, 'concurrency', 8, 1);
  if (values.sign === '') throw new UsageError('--sign needs the private key file to sign with (skillmount-signing.key from skillmount keygen)');
  // Read before the folder is checked: a wrong key fails before anything else is done.
  const signer = values.sign !== undefined ? await signerFromFile(values.sign) : undefined;

  const folder = await openStorage(source);
  if (folder.kind !== 'folder') throw new UsageError(`publish reads a skills folder; "${folder.label}" is not one`);
  const checked = await checkFolder(folder.storage);
  const { problems, warnings } = sortFindings(checked.problems);
  for (const p of problems) complain(warningText(p, folder.label));
  for (const line of warningLines(warnings, folder.label)) complain(line);
  if (problems.length > 0) {
    if (values.force !== true) {
      complain(
        `skillmount: refusing to publish ${folder.label}: ${plural(problems.length, 'problem')} (${plural(checked.skills, 'skill')} valid). ` +
          'Fix them, or publish the valid skills only with --force.',
      );
      return 1;
    }
    complain(`skillmount: --force: publishing the ${plural(checked.skills, 'valid skill')} only`);
  }
  // --force publishes around invalid skills; a warning is about a valid one, so --strict refuses whatever --force says.
  if (values.strict === true && warnings.length > 0) {
    complain(`skillmount: --strict: refusing to publish ${folder.label}: ${plural(warnings.length, 'warning')}. Fix them, or publish without --strict.`);
    return 1;
  }
  if (checked.skills === 0) {
    complain(`skillmount: no valid skill in ${folder.label}; nothing to publish`);
    return 1;
  }

  let files = checked.files;
  let made: Map<string, Uint8Array> | undefined;
  if (signer) {
    const signed = await signForPublish(folder.storage, checked.bySkill, checked.files, signer);
    files = signed.files;
    made = signed.made;
    const current = signed.kept.length > 0 ? `; ${plural(signed.kept.length, 'signature')} already current` : '';
    say(`${dryRun ? 'would sign' : 'signed'} ${plural(made.size, 'skill')} with ${field(values.sign!)}${current}`);
  }

  const opened = await openStorage(destination, { ...(values.table !== undefined ? { table: values.table } : {}), migrate: !dryRun });
  let result;
  try {
    const target =
      opened.kind === 's3'
        ? (await import('../publish/s3-target.js')).s3Target(opened.storage)
        : opened.kind === 'postgres'
          ? postgresTarget(opened.storage, { missingTableIsEmpty: dryRun })
          : undefined;
    if (!target) throw new UsageError(`cannot publish to a folder (${opened.label})`);
    result = await runPublish({
      folder: folder.storage,
      files,
      ...(made ? { made } : {}),
      target,
      delete: values.delete === true,
      dryRun,
      concurrency,
      progress: (total) => progress(process.stderr, 'publishing', total),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw opened.explain(error, 'cannot publish to');
  } finally {
    await opened.close();
  }

  // The folder keeps the signatures it was published with, so publishing it unchanged again uploads none.
  if (made && !dryRun) for (const [file, bytes] of made) await writeFile(path.join(folder.storage.root, ...file.split('/')), bytes);
  if (dryRun) {
    for (const p of result.uploaded) say(`would upload ${field(p)}`);
    for (const p of result.removed) say(`would remove ${field(p)}`);
  }
  if (result.kept.length > 0) {
    complain(
      `skillmount: ${plural(result.kept.length, 'stored file')} in ${opened.label} ${result.kept.length === 1 ? 'is' : 'are'} no longer in ${folder.label}; ` +
        `--delete removes ${result.kept.length === 1 ? 'it' : 'them'}`,
    );
  }
  const counts = `${plural(result.uploaded.length, 'file')} (${result.unchanged} unchanged, ${result.removed.length} removed) to ${opened.label}`;
  say(dryRun ? `dry run: would publish ${counts}; nothing was written` : `published ${counts}`);
  return 0;
}
