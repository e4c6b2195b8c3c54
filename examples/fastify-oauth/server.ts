// A Fastify MCP endpoint behind OAuth bearer tokens: each signed-in user sees their own skills.
// Run: pnpm start, then connect with the header "Authorization: Bearer alice-token" (or bob-token).
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InsufficientScopeError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { tenantCatalogs } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified token, set by the bearer hook below; the plugin passes it on as ctx.auth and to tools as extra.authInfo. */
    auth?: AuthInfo | null;
  }
}

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// users/<user>/<skill>/SKILL.md: one folder of skills per user.
const usersDir = process.env.USERS_DIR ?? fileURLToPath(new URL('./users', import.meta.url));
// The authorization server that issues the tokens: clients find it in the protected resource metadata.
const authorizationServer = process.env.AUTHORIZATION_SERVER ?? 'https://auth.example.com';
const REQUIRED_SCOPES = ['skills:read'];
const MCP_PATH = '/mcp';
// RFC 9728: the metadata of https://host/mcp is at https://host/.well-known/oauth-protected-resource/mcp.
const METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

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

// Fastify sets no request timeout by default; a slow client could hold a connection for ever.
const app = Fastify({ logger: { level: 'warn' }, requestTimeout: 30_000 });

/** The origin clients reach the app at: PUBLIC_ORIGIN behind a proxy (https://skills.example.com), else the address it listens on. */
function publicOrigin(): string {
  return process.env.PUBLIC_ORIGIN?.replace(/\/$/, '') ?? `http://${host}:${(app.server.address() as AddressInfo).port}`;
}

/** The SDK's requireBearerAuth checks: a known, unexpired token with every required scope. */
async function verifyBearer(authorization: string | undefined): Promise<AuthInfo> {
  const [type, token] = authorization?.split(' ') ?? [];
  if (type?.toLowerCase() !== 'bearer' || !token) throw new InvalidTokenError("Missing or malformed Authorization header: expected 'Bearer TOKEN'");
  const auth = await verifier.verifyAccessToken(token);
  if (!REQUIRED_SCOPES.every((scope) => auth.scopes.includes(scope))) throw new InsufficientScopeError('Insufficient scope');
  if (typeof auth.expiresAt !== 'number' || auth.expiresAt < Date.now() / 1000) throw new InvalidTokenError('Token has expired');
  return auth;
}

/**
 * An onRequest hook: the verified token on request.auth, or 401 (no valid token) or 403 (a scope
 * missing) with a WWW-Authenticate header that names the protected resource metadata, as
 * requireBearerAuth answers on Express. Any other error goes to Fastify's error handling (500).
 */
async function requireBearer(request: FastifyRequest, reply: FastifyReply) {
  try {
    request.auth = await verifyBearer(request.headers.authorization);
  } catch (error) {
    if (!(error instanceof InvalidTokenError || error instanceof InsufficientScopeError)) throw error;
    const challenge =
      `Bearer error="${error.errorCode}", error_description="${error.message}", scope="${REQUIRED_SCOPES.join(' ')}", ` +
      `resource_metadata="${publicOrigin()}${METADATA_PATH}"`;
    return reply
      .code(error instanceof InvalidTokenError ? 401 : 403)
      .header('www-authenticate', challenge)
      .send(error.toResponseObject());
  }
}

// The protected resource metadata (RFC 9728), public: where a client that got the 401 finds the
// authorization server to sign in with.
app.get(METADATA_PATH, async () => {
  const metadata: OAuthProtectedResourceMetadata = {
    resource: `${publicOrigin()}${MCP_PATH}`,
    authorization_servers: [authorizationServer],
    scopes_supported: REQUIRED_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Per-user skills',
  };
  return metadata;
});

// One catalog per user, loaded from that user's folder on first use; a user without a folder sees none.
const perUserSkills = tenantCatalogs({
  key: (ctx) => ctx.user as string | undefined,
  storage: (user) => fsStorage(path.join(usersDir, user)),
});
app.addHook('onClose', () => perUserSkills.close()); // a source you pass in stays yours to close

// The MCP endpoint in a context of its own, so the bearer hook guards it and nothing else.
await app.register(async (mcp) => {
  mcp.decorateRequest('auth', null);
  // No valid token: 401 with a WWW-Authenticate header, before any MCP request is read.
  mcp.addHook('onRequest', requireBearer);
  await mcp.register(skillsPlugin, {
    source: perUserSkills,
    path: MCP_PATH,
    // The user the token was issued to: the hook put the verified token on request.auth.
    context: (request) => ({ user: request.auth?.extra?.user }),
    server: () => {
      const server = new McpServer({ name: 'per-user-skills', version: '1.0.0' });
      // The app's own tools see the same verified token.
      server.registerTool('whoami', { description: 'The signed-in user' }, async (extra) => ({
        content: [{ type: 'text', text: String(extra.authInfo?.extra?.user ?? 'nobody') }],
      }));
      return server;
    },
  });
});

const address = await app.listen({ port, host });
console.log(`listening on ${address}${MCP_PATH} (tokens: ${Object.keys(DEMO_TOKENS).join(', ')})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close());
}
