// An Express MCP endpoint behind OAuth bearer tokens: each signed-in user sees their own skills.
// Run: pnpm start, then connect with the header "Authorization: Bearer alice-token" (or bob-token).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { tenantCatalogs } from '@skillmount/core';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import express from 'express';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// users/<user>/<skill>/SKILL.md: one folder of skills per user.
const usersDir = process.env.USERS_DIR ?? fileURLToPath(new URL('./users', import.meta.url));

// Demo tokens, for trying the example only. A real verifier checks a JWT's signature, issuer,
// audience and expiry against your authorization server's keys, or asks that server
// (token introspection), and takes the user from the token's subject.
const DEMO_TOKENS: Record<string, { user: string; scopes: string[] }> = {
  'alice-token': { user: 'alice', scopes: ['skills:read'] },
  'bob-token': { user: 'bob', scopes: ['skills:read'] },
  'carol-token': { user: 'carol', scopes: [] },
};

const verifier: OAuthTokenVerifier = {
  async verifyAccessToken(token) {
    const grant = DEMO_TOKENS[token];
    if (!grant) throw new InvalidTokenError('Unknown or expired token: sign in again');
    return {
      token,
      clientId: `demo-client-${grant.user}`,
      scopes: grant.scopes,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      extra: { user: grant.user },
    };
  },
};

// One catalog per user, loaded from that user's folder on first use; a user without a folder sees none.
const perUserSkills = tenantCatalogs({
  key: (ctx) => ctx.user as string | undefined,
  storage: (user) => fsStorage(path.join(usersDir, user)),
});

const skills = skillsMiddleware({
  source: perUserSkills,
  // The user the token was issued to: requireBearerAuth put the verified token on req.auth.
  context: (req) => ({ user: req.auth?.extra?.user }),
  server: () => {
    const server = new McpServer({ name: 'per-user-skills', version: '1.0.0' });
    // The app's own tools see the same verified token.
    server.registerTool('whoami', { description: 'The signed-in user' }, async (extra) => ({
      content: [{ type: 'text', text: String(extra.authInfo?.extra?.user ?? 'nobody') }],
    }));
    return server;
  },
});

const app = express();
// No valid token: 401 with a WWW-Authenticate header, before any MCP request is read.
app.use('/mcp', requireBearerAuth({ verifier, requiredScopes: ['skills:read'] }), skills);

const listener = app.listen(port, host, () => {
  const address = listener.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  console.log(`listening on http://${host}:${bound}/mcp (tokens: ${Object.keys(DEMO_TOKENS).join(', ')})`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await skills.close();
    await perUserSkills.close(); // a source you pass in stays yours to close
    listener.close();
  });
}
