import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { SkillsEndpoint, SkillSource, SkillWarning } from '@skillmount/core';
import { setClientAddress } from '@skillmount/core/adapter';
import { describe } from './served.js';

const NAME = '@skillmount/express';
const PREFIX = '/.well-known/agent-skills/';

export interface WellKnownParts {
  /** The `wellKnown` option. */
  enabled: boolean;
  skills: { readonly ready: Promise<SkillSource> };
  closed: () => boolean;
  contextOf: (req: Request) => Promise<Record<string, unknown>>;
  endpointFor: (source: SkillSource) => SkillsEndpoint;
  warn: (warning: SkillWarning) => void;
}

/**
 * GET and HEAD under `/.well-known/agent-skills/` (relative to where it is mounted), answered by
 * the endpoint once the skills are loaded, with the `context` option applied; every other request
 * is passed on. The router uses it under its mount path; `router.wellKnown` is the same handler,
 * for the app to mount at the origin root.
 */
export function mountWellKnown(router: Router, parts: WellKnownParts): void {
  const handler = wellKnownHandler(parts);
  router.use(handler);
  Object.defineProperty(router, 'wellKnown', { value: handler, enumerable: true });
}

function wellKnownHandler(parts: WellKnownParts): RequestHandler {
  const answer = async (req: Request, res: Response, next: NextFunction) => {
    let source: SkillSource;
    try {
      source = await parts.skills.ready;
    } catch {
      res.status(500).type('text/plain').send('skills catalog failed to load\n');
      return;
    }
    if (parts.closed()) {
      res.status(503).type('text/plain').send('Service unavailable: these skills are closed\n');
      return;
    }
    let context: Record<string, unknown>;
    try {
      context = await parts.contextOf(req);
    } catch (error) {
      return next(error); // the app's own failure (auth, say): its error handlers decide the answer
    }
    // Per-client shares count Express's address, which honours the app's trust proxy setting.
    setClientAddress(req, req.ip);
    try {
      await parts.endpointFor(source).handleWellKnown(req, res, context);
    } catch (error) {
      if (!res.headersSent) res.status(500).type('text/plain').send('Internal error\n');
      else res.end();
      parts.warn({ code: 'request-failed', message: `${NAME}: /.well-known/agent-skills request failed: ${describe(error)}` });
    }
  };
  return (req, res, next) => {
    if (!parts.enabled || (req.method !== 'GET' && req.method !== 'HEAD') || !req.path.startsWith(PREFIX)) return next();
    answer(req, res, next).catch(next); // Express 4 does not catch a rejected handler itself
  };
}
