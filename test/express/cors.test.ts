/** CORS for browser hosts on Express: the `cors` middleware with `MCP_CORS_OPTIONS` in front of the skills router. */
import cors from 'cors';
import express from 'express';
import { MCP_CORS_OPTIONS, skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import { listenExpress } from '../support/apps.js';
import { ALLOWED_ORIGIN, CHALLENGE, corsSuite, TOKEN } from '../support/cors-suite.js';
import { EXAMPLES } from '../support/skills-suite.js';

corsSuite('express', async () => {
  const app = express();
  const skills = skillsMiddleware({
    storage: fsStorage(EXAMPLES),
    sessions: true,
    allowedHosts: ['127.0.0.1'],
    allowedOrigins: [ALLOWED_ORIGIN],
    onWarning: () => {},
  });
  // cors() first: it answers a preflight itself, before the bearer check and the router's own checks.
  app.use(
    '/mcp',
    cors({ origin: [ALLOWED_ORIGIN], ...MCP_CORS_OPTIONS }),
    (req, res, next) => {
      if (req.headers.authorization === `Bearer ${TOKEN}`) return next();
      res.status(401).set('www-authenticate', CHALLENGE).json({ error: 'invalid_token' });
    },
    skills,
  );
  const http = await listenExpress(app);
  return {
    url: http.url,
    close: async () => {
      await skills.close();
      await http.close();
    },
  };
});
