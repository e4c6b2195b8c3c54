/**
 * Declarations put before a documentation fragment marked `<!-- prelude: name -->`, so that it
 * type-checks without showing what it assumes. Types are written as `import('…')` expressions,
 * so a sample may import the same names itself.
 */
export const PRELUDES: Record<string, string> = {
  /** A Fastify app with the plugin registered (`app.skills`). */
  'fastify-app': "import '@skillmount/fastify';\ndeclare const app: import('fastify').FastifyInstance;",
  /** An Express app. */
  'express-app': "declare const app: import('express').Express;",
  /** The Express router of `skillsMiddleware`. */
  'express-skills': "declare const skills: import('@skillmount/express').SkillsRouter;",
  /** A loaded catalog. */
  catalog: "declare const catalog: import('@skillmount/core').SkillCatalog;",
  /** Any skill source. */
  source: "declare const source: import('@skillmount/core').SkillSource;",
  /** A storage. */
  storage: "declare const storage: import('@skillmount/core').SkillFiles;",
  /** An SDK v1 server. */
  server: "declare const server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;",
  /** A connected SDK v1 client and a SkillsClient over it. */
  client: "declare const client: import('@modelcontextprotocol/sdk/client/index.js').Client;\ndeclare const skills: import('@skillmount/core/client').SkillsClient;",
  /** Node's http module and a request pair, for fragments of a plain Node route. */
  http: "import http from 'node:http';\ndeclare const req: import('node:http').IncomingMessage & { user: { orgId: string } };\ndeclare const res: import('node:http').ServerResponse;\ndeclare const transport: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;",
  /** The app's own token check, as an auth hook calls it. */
  'verify-token': "declare function verifyToken(header: string | undefined): Promise<import('@modelcontextprotocol/sdk/server/auth/types.js').AuthInfo>;",
};
