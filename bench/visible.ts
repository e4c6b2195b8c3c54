/**
 * The visibility case alone (it also runs within bench/run.ts): one catalog with `visible()`
 * against a tenant per user, at the plan's sizes.
 *
 *   node --import tsx bench/visible.ts             # 1000 users, 5 timed passes
 *   node --import tsx bench/visible.ts --quick     # 1000 users, 1 timed pass
 *   node --import tsx bench/visible.ts --smoke     # 20 users, 1 timed pass
 *
 * Needs built packages and a PostgreSQL server (`DATABASE_URL`, else an embedded one is started).
 */
import { startPostgres } from '../test/support/postgres.js';
import { visibleCase, visibleSection } from './cases/visible.js';
import { machine } from './machine.js';
import { parseMode, planFor } from './plan.js';

const mode = parseMode(process.argv.slice(2));
const { corpus, runs } = planFor(mode).visible;
const postgres = await startPostgres();
try {
  console.log(`- Machine: ${machine()}`);
  console.log(`- Date: ${new Date().toISOString().slice(0, 10)}`);
  console.log(
    `- Command: \`node --import tsx bench/visible.ts${mode === 'default' ? '' : ` --${mode}`}\`${process.env.DATABASE_URL ? ' (DATABASE_URL)' : ', embedded PostgreSQL'}`,
  );
  console.log();
  for (const line of visibleSection(await visibleCase(postgres.connectionString, corpus, runs))) console.log(line);
} finally {
  await postgres.stop();
}
