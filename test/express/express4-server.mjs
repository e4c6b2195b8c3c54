/**
 * An Express 4 app serving the example skills with @skillmount/express, run by express4.test.ts
 * from a folder where `express` is Express 4 for this file and for the adapter alike. Prints one
 * JSON line once it listens: its URL and the Express version each of them loaded.
 *
 *   node express4-server.mjs <examples-folder>
 */
import { createRequire } from 'node:module';
import express from 'express';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';

const examples = process.argv[2];
const app = express();
// The app's own middleware before the skills: an endpoint that skips it would answer anyway.
app.use((req, res, next) => (req.get('x-deny') ? res.status(403).json({ denied: true }) : next()));
const context = (req) => {
  if (req.get('x-throw')) throw new Error('no such tenant');
  return {};
};
const stateless = skillsMiddleware({ storage: fsStorage(examples), context, onWarning: () => {} });
const sessions = skillsMiddleware({ storage: fsStorage(examples), sessions: true, onWarning: () => {} });
app.use('/mcp', stateless);
app.use('/sessions/mcp', sessions);
// Express 4 passes a rejected handler to no one: the adapter's own next(error) must reach this.
app.use((error, req, res, next) => res.status(500).json({ appError: error.message }));

const adapterRequire = createRequire(import.meta.resolve('@skillmount/express'));
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const versions = {
    app: createRequire(import.meta.url)('express/package.json').version,
    adapter: adapterRequire('express/package.json').version,
  };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, versions }));
});
process.on('SIGTERM', async () => {
  await Promise.all([stateless.close(), sessions.close()]);
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});
