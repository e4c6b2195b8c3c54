/**
 * One embedded PostgreSQL for a whole run of the suite (scripts/test.mjs starts this when
 * DATABASE_URL is not set): it prints the connection string as one line on stdout once the server
 * takes connections, and stops the server and deletes its data when its standard input closes (the
 * run ended, or the process that started it died) or on SIGTERM/SIGINT. Every test file then shares
 * the server as it shares the one DATABASE_URL names, each in tables, roles and databases of its
 * own; the tests that restart PostgreSQL still start their own (`startPostgres({ own: true })`).
 */
import { startPostgres } from './postgres.js';

const server = await startPostgres({ own: true });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.stop().then(
    () => process.exit(0),
    (error) => {
      console.error(`the shared embedded PostgreSQL did not stop cleanly: ${(error as Error)?.message ?? error}`);
      process.exit(1);
    },
  );
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdout.write(`${server.connectionString}\n`);
