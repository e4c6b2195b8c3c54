/**
 * SDK v2 apps as their authors write them: `createMcpHandler` with the SDK v2's own
 * `SkillsExtension` over a skillmount source (`sdkV2Skills`), mounted with `toNodeHandler` on
 * `@modelcontextprotocol/express`'s or `@modelcontextprotocol/fastify`'s app, on 127.0.0.1.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { McpServer, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { createMcpFastifyApp } from '@modelcontextprotocol/fastify';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { SkillSource, TenantSource } from '@skillmount/core';
import { notifyListChanges, sdkV2Skills, sdkV2TenantHandler, type SdkV2SourceOptions } from '@skillmount/core/sdk-v2';
import type { Request as ExpressRequest } from 'express';
import { listenExpress, listenFastify } from '../support/apps.js';
import type { StorageName } from './storages.js';

export type Framework = 'express' | 'fastify';
export const FRAMEWORKS: Framework[] = ['express', 'fastify'];

/**
 * The SDK v2 apps a peer (the conformance suite, MCP Inspector) judges: each storage once and each
 * framework at least once. The storages give `sdkV2Skills` the same catalog (their contract
 * battery proves it), so a peer run again over every storage behind every framework proves nothing more.
 */
export const SDK_V2_APPS: readonly { framework: Framework; storage: StorageName }[] = [
  { framework: 'express', storage: 'folder storage' },
  { framework: 'fastify', storage: 'S3' },
  { framework: 'express', storage: 'PostgreSQL' },
];

export interface SdkV2Served {
  url: string;
  warnings: string[];
  close(): Promise<void>;
}

export interface SdkV2TenantsApp extends SdkV2Served {
  /** The tenant of each handler made, in order (`undefined`: requests without a tenant). */
  created: (string | undefined)[];
}

export interface SdkV2App extends SdkV2Served {
  handler: McpHttpHandler;
}

/**
 * The app's auth, as a bearer-token middleware would set it: `Authorization: Bearer <org>` gives
 * `req.auth` with `extra.org`, which the SDK v2 hands to handlers as `ctx.http.authInfo`.
 */
function authOf(header: string | undefined): AuthInfo | undefined {
  const token = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  return token === undefined ? undefined : { token, clientId: `client-${token}`, scopes: [], extra: { org: token } };
}

export interface ServeOptions extends SdkV2SourceOptions {
  /** Read `Authorization: Bearer <org>` into `req.auth`. */
  auth?: boolean;
}

/** The SDK v2's extension over `source`, and the server factory that attaches it. */
function appFactory(source: SkillSource, options: ServeOptions, warnings: string[]) {
  const { auth: _auth, ...sourceOptions } = options;
  const extension = new SkillsExtension({ ...sdkV2Skills(source, sourceOptions), onWarning: (w) => warnings.push(`${w.path}: ${w.message}`) });
  return () => {
    const mcp = new McpServer({ name: 'sdk-v2-app', version: '1.0.0' });
    extension.attach(mcp);
    return mcp;
  };
}

/** Serve `source` from an SDK v2 app on `framework`; its list changes go to the handler's listen streams. */
export async function serveSdkV2(framework: Framework, source: SkillSource, options: ServeOptions = {}): Promise<SdkV2App> {
  const warnings: string[] = [];
  const handler = createMcpHandler(appFactory(source, options, warnings));
  const stop = notifyListChanges(source, handler.notify);
  const listening = await listenOn(framework, toNodeHandler(handler), options.auth === true);
  return {
    url: listening.url,
    handler,
    warnings,
    async close() {
      stop();
      await handler.close();
      await listening.close();
    },
  };
}

/** Serve per-tenant catalogs with one SDK v2 handler per tenant (`sdkV2TenantHandler`), the tenant from `Authorization: Bearer <org>`. */
export async function serveSdkV2Tenants(framework: Framework, tenants: TenantSource, options: ServeOptions = {}): Promise<SdkV2TenantsApp> {
  const warnings: string[] = [];
  const created: (string | undefined)[] = [];
  const factory = appFactory(tenants, options, warnings);
  const handler = sdkV2TenantHandler(tenants, (key) => {
    created.push(key);
    return createMcpHandler(factory);
  });
  const listening = await listenOn(framework, toNodeHandler(handler), true);
  return {
    url: listening.url,
    warnings,
    created,
    async close() {
      await handler.close();
      await listening.close();
    },
  };
}

function listenOn(framework: Framework, node: NodeHandler, auth: boolean) {
  return framework === 'express' ? expressApp(node, auth) : fastifyApp(node, auth);
}

type NodeHandler = ReturnType<typeof toNodeHandler>;

async function expressApp(node: NodeHandler, auth: boolean) {
  const app = createMcpExpressApp();
  if (auth) {
    app.use((req: ExpressRequest, _res, next) => {
      const info = authOf(req.headers.authorization);
      if (info) req.auth = info;
      next();
    });
  }
  app.all('/mcp', (req, res) => node(req, res, req.body));
  return listenExpress(app);
}

async function fastifyApp(node: NodeHandler, auth: boolean) {
  const app = createMcpFastifyApp();
  app.all('/mcp', async (request, reply) => {
    const raw = request.raw as typeof request.raw & { auth?: AuthInfo };
    if (auth) raw.auth = authOf(request.headers.authorization);
    reply.hijack();
    await node(raw, reply.raw, request.body);
  });
  return listenFastify(app);
}
