/**
 * The one way the adapter suite starts an app: either adapter at `/mcp` on a free 127.0.0.1 port,
 * with the same app around it (auth, error handler, a hook that sees event streams open), so each
 * test of test/adapters runs unchanged against both, and a drift between them fails a test.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { ReloadReport, SkillCatalog, SkillEntry } from '@skillmount/core';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import express from 'express';
import Fastify from 'fastify';
import { listenExpress, listenFastify } from '../support/apps.js';

export type AdapterKind = 'fastify' | 'express';
export const ADAPTERS: readonly AdapterKind[] = ['fastify', 'express'];
/** The package each adapter's messages start with. */
export const PACKAGE: Record<AdapterKind, string> = { fastify: '@skillmount/fastify', express: '@skillmount/express' };

/**
 * The options both adapters share. `context` is given either framework's request, of which the
 * tests read only the headers; it may return anything, so a test can hand it a wrong value.
 */
export type AdapterOptions = Omit<SkillsPluginOptions & SkillsMiddlewareOptions, 'context' | 'path'> & {
  context?: (request: { headers: IncomingHttpHeaders }) => unknown;
};

/** The app around the adapter. */
export interface AppSetup {
  /** Sets the request's auth, as an app's authentication does: `request.auth` in an onRequest hook (Fastify), `req.auth` in a middleware (Express). */
  auth?: (headers: IncomingHttpHeaders) => AuthInfo | undefined;
  /**
   * An error handler of the app's: it records each error and answers `{ error: { message, code } }`
   * with the error's `statusCode` or `status`, else 500. Without it, the framework's default answers.
   */
  errorHandler?: boolean;
  /** Fastify's `requestTimeout`. Default 30000, as the Fastify README asks apps to set (Fastify's own default is 0, none). */
  requestTimeout?: number;
}

/** What each adapter exposes about the skills: `app.skills` on Fastify, the router on Express. */
export interface AdapterSkills {
  readonly catalog: SkillCatalog | undefined;
  readonly entries: readonly SkillEntry[];
  reload(): Promise<ReloadReport>;
}

export interface StartedAdapter {
  kind: AdapterKind;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  skills: AdapterSkills;
  /** Errors the app's error handler received (with `errorHandler: true`). */
  errors: (Error & { code?: unknown; statusCode?: number; status?: number })[];
  /** Fastify's log lines at level warn and above, parsed; always empty on Express, which has no logger. */
  logs: Record<string, any>[];
  /** Resolves once the next GET event stream on the endpoint has sent its headers, so notifications have a way out. */
  streamOpened(): Promise<void>;
  /** Close the adapter as its README says: `app.close()` on Fastify; `router.close()` on Express, whose HTTP server stays up. */
  closeAdapter(): Promise<void>;
  /** Close everything: the adapter, then Express's HTTP server. */
  close(): Promise<void>;
}

/** Start `kind` with `options`; rejects as the adapter refuses them (Fastify at registration, Express at creation). */
export async function startAdapter(kind: AdapterKind, options: AdapterOptions, setup: AppSetup = {}): Promise<StartedAdapter> {
  const errors: StartedAdapter['errors'] = [];
  const logs: StartedAdapter['logs'] = [];
  const streams = streamWatch();
  const answerError = (error: StartedAdapter['errors'][number]) => {
    errors.push(error);
    return { status: error.statusCode ?? error.status ?? 500, body: { error: { message: error.message, code: error.code } } };
  };
  return kind === 'fastify'
    ? startFastify(options, setup, { errors, logs, streams, answerError })
    : startExpress(options, setup, { errors, logs, streams, answerError });
}

interface Recorders {
  errors: StartedAdapter['errors'];
  logs: StartedAdapter['logs'];
  streams: ReturnType<typeof streamWatch>;
  answerError(error: StartedAdapter['errors'][number]): { status: number; body: unknown };
}

async function startFastify(options: AdapterOptions, setup: AppSetup, recorders: Recorders): Promise<StartedAdapter> {
  const { errors, logs, streams, answerError } = recorders;
  const app = Fastify({
    requestTimeout: setup.requestTimeout ?? 30_000,
    logger: { level: 'warn', stream: { write: (line: string) => void logs.push(JSON.parse(line)) } },
  });
  const { auth, errorHandler } = setup;
  if (auth) {
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      const info = auth(request.headers);
      if (info) (request as unknown as { auth: AuthInfo }).auth = info;
    });
  }
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET') streams.seen(reply.raw);
  });
  if (errorHandler) {
    app.setErrorHandler((error, _request, reply) => {
      const { status, body } = answerError(error as StartedAdapter['errors'][number]);
      return reply.code(status).send(body);
    });
  }
  try {
    await app.register(skillsPlugin, options as SkillsPluginOptions);
    const http = await listenFastify(app);
    return {
      kind: 'fastify',
      url: http.url,
      skills: app.skills,
      errors,
      logs,
      streamOpened: streams.next,
      closeAdapter: () => app.close(),
      close: () => app.close(),
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
}

async function startExpress(options: AdapterOptions, setup: AppSetup, recorders: Recorders): Promise<StartedAdapter> {
  const { errors, logs, streams, answerError } = recorders;
  const skills = skillsMiddleware(options as SkillsMiddlewareOptions);
  // Loaded before the first request, as the Fastify plugin is once registered.
  await skills.ready;
  const app = express();
  // Express's default error handler prints every error's stack unless the env is 'test'; the tests cause those errors on purpose.
  app.set('env', 'test');
  const { auth, errorHandler } = setup;
  if (auth) {
    app.use((req, _res, next) => {
      const info = auth(req.headers);
      if (info) (req as unknown as { auth: AuthInfo }).auth = info;
      next();
    });
  }
  app.use((req, res, next) => {
    if (req.method === 'GET') streams.seen(res);
    next();
  });
  app.use('/mcp', skills);
  if (errorHandler) {
    app.use((error: StartedAdapter['errors'][number], _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      const { status, body } = answerError(error);
      res.status(status).json(body);
    });
  }
  const http = await listenExpress(app);
  let closed: Promise<void> | undefined;
  return {
    kind: 'express',
    url: http.url,
    skills,
    errors,
    logs,
    streamOpened: streams.next,
    closeAdapter: () => skills.close(),
    close: () =>
      (closed ??= (async () => {
        await skills.close();
        await http.close();
      })()),
  };
}

/** GET responses as they arrive; `next()` resolves once the next one has sent its headers (an event stream is open). */
function streamWatch() {
  const waiting: (() => void)[] = [];
  return {
    seen(res: ServerResponse) {
      const poll = setInterval(() => {
        if (!res.headersSent && !res.destroyed) return;
        clearInterval(poll);
        if (res.headersSent) for (const resolve of waiting.splice(0)) resolve();
      }, 5);
    },
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}
