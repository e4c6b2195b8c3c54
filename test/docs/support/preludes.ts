/**
 * Declarations put before a documentation fragment marked `<!-- prelude: name, … -->`, so that it
 * type-checks without showing what it assumes (never shown on the page). Declared values are typed
 * with `import('…')` types, so a fragment may import the same names itself; `imports` is for
 * fragments that import nothing.
 */
const IMPORTS = `import http from 'node:http';
import path from 'node:path';
import Fastify from 'fastify';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SkillCatalog, attach, createSkillsEndpoint, memoryStorage, runWithSkillContext, tenantCatalogs, type SkillsEndpoint } from '@skillmount/core';
import type { ListAllOptions, SkillFileEntry, SkillFileListing, SkillFileReadOptions } from '@skillmount/core';
import skillsPlugin from '@skillmount/fastify';
import { skillsMiddleware } from '@skillmount/express';
import { fsStorage } from '@skillmount/storage-fs';
import { s3Storage } from '@skillmount/storage-s3';
import { postgresStorage } from '@skillmount/storage-postgres';
import { SkillsClient } from '@skillmount/core/client';`;

export const PRELUDES: Record<string, string> = {
  /** Every package's main names, and Node's http and path. */
  imports: IMPORTS,
  /** Node's http module alone. */
  'node-http': "import http from 'node:http';",
  /** The Fastify plugin's names alone (with `tenantCatalogs` imported by the fragment). */
  'fastify-imports': "import path from 'node:path';\nimport skillsPlugin from '@skillmount/fastify';\nimport { fsStorage } from '@skillmount/storage-fs';",
  /** The Express router's factory alone. */
  'express-imports': "import { skillsMiddleware } from '@skillmount/express';",
  /** A Fastify app (with the plugin's `app.skills`). */
  'fastify-app': "import '@skillmount/fastify';\ndeclare const app: import('fastify').FastifyInstance;",
  /** An Express app. */
  'express-app': "declare const app: import('express').Express;",
  /** One `app` for a line of each framework. */
  'any-app': "import '@skillmount/fastify';\ndeclare const app: import('fastify').FastifyInstance & import('express').Express;",
  /** Inside a Fastify route of the app's own. */
  'fastify-route':
    "declare const request: import('fastify').FastifyRequest;\ndeclare const reply: import('fastify').FastifyReply;\n" +
    "declare const transport: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;",
  /** Inside an Express route of the app's own, with the router of `skillsMiddleware`. */
  'express-route':
    "declare const skills: import('@skillmount/express').SkillsRouter;\ndeclare const req: import('express').Request;\n" +
    "declare const res: import('express').Response;\n" +
    "declare const transport: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;",
  /** Inside a plain Node.js route whose middleware put the user (and the parsed body) on the request. */
  'node-route':
    "declare const req: import('node:http').IncomingMessage & { user: { orgId: string }; body?: unknown };\ndeclare const res: import('node:http').ServerResponse;\n" +
    "declare const transport: import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;",
  /** The app's own server factory and route, for `handleModern`. */
  'own-route':
    "declare function buildMyServer(): import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;\n" +
    "declare function myOwnMcpRoute(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<void>;",
  /** Names an SDK v2 app's fragments use without importing them. */
  'sdk-v2-names':
    "declare const path: typeof import('node:path');\ndeclare const fsStorage: typeof import('@skillmount/storage-fs').fsStorage;\n" +
    "declare const SkillsExtension: typeof import('@modelcontextprotocol/server/ext/skills').SkillsExtension;\n" +
    "declare const sdkV2Skills: typeof import('@skillmount/core/sdk-v2').sdkV2Skills;\n" +
    "declare const notifyListChanges: typeof import('@skillmount/core/sdk-v2').notifyListChanges;",
  /** An SDK v2 app's `createMcpHandler` handler, and its per-tenant source. */
  'sdk-v2-handler':
    "declare const handler: import('@modelcontextprotocol/server').McpHttpHandler;\ndeclare const tenants: import('@skillmount/core').TenantSource;",
  /** What an SDK v2 app's server factory uses: the SDK v2's names, its server info, its own visible rule and plan lookup. */
  'sdk-v2-factory':
    "declare const McpServer: typeof import('@modelcontextprotocol/server').McpServer;\n" +
    "declare const createMcpHandler: typeof import('@modelcontextprotocol/server').createMcpHandler;\n" +
    "declare const info: { name: string; version: string };\ndeclare const visible: import('@skillmount/core').SkillVisibility;\n" +
    "declare function planOf(ctx: import('@modelcontextprotocol/server').ServerContext): string;",
  /** A loaded catalog. */
  catalog: "declare const catalog: import('@skillmount/core').SkillCatalog;",
  /** Any skill source. */
  source: "declare const source: import('@skillmount/core').SkillSource;",
  /** A storage. */
  storage: "declare const storage: import('@skillmount/core').SkillFiles;",
  /** What `SkillCatalog.load` takes. */
  'load-args': "declare const files: import('@skillmount/core').SkillFiles;\ndeclare const options: import('@skillmount/core').CatalogOptions;",
  /** An SDK v1 server. */
  server: "declare const server: import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;",
  /** A connected SDK v1 client. */
  client: "declare const client: import('@modelcontextprotocol/sdk/client/index.js').Client;",
  /** A `SkillsClient` and the entries its `list()` gave. */
  'skills-client':
    "declare const skills: import('@skillmount/core/client').SkillsClient;\ndeclare const entries: import('@skillmount/core/client').SkillEntry[];",
  /** The options of `skillsMiddleware`. */
  'express-options': "declare const options: import('@skillmount/express').SkillsMiddlewareOptions;",
  /** A tenant key function, an S3 client and a PostgreSQL pool, shared by every tenant's storage. */
  'tenant-parts':
    "declare const key: (ctx: import('@skillmount/core').SkillContext) => string | undefined;\n" +
    "declare const client: import('@aws-sdk/client-s3').S3Client;\ndeclare const pool: import('pg').Pool;",
  /** The app's own records of a user's skill files. */
  'skill-files-of': 'declare function skillFilesOf(user: string): Promise<Record<string, string>>;',
  /** The app's own request type, for an adapter. */
  'my-request': 'type MyRequest = { headers: Record<string, string> };',
  /** The app's own token check, as an auth hook calls it. */
  'verify-token': "declare function verifyToken(header: string | undefined): Promise<import('@modelcontextprotocol/sdk/server/auth/types.js').AuthInfo>;",
  /** The app's own authentication middleware, which sets `req.auth`. */
  authenticate: "declare const authenticate: import('express').RequestHandler;",
};
