/**
 * The `/.well-known/agent-skills/` route over one skills service, with the checks every request
 * of the endpoint passes first (the request guard) and its response budget: the endpoint's
 * `handleWellKnown` and `createWellKnownHandler` are both this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextFromExtra, contextOfRequest, runWithSkillContext } from '../context/store.js';
import type { SkillHandlers } from '../server/handlers.js';
import type { SkillContext, SkillSource, SkillWarning } from '../types.js';
import { describeError } from '../text/error-text.js';
import { tellFor } from '../warnings/told.js';
import { WellKnownAnswers } from '../well-known/answers.js';
import { handleWellKnown } from '../well-known/route.js';
import { discardBody } from './body.js';
import type { ResponseBudget } from './budget.js';
import { sendRefusal } from './reply.js';
import type { RequestGuard } from './types.js';

export interface WellKnownParts {
  service: SkillHandlers;
  /** Owns the told-once record of the `well-known-skipped` warnings. */
  source: SkillSource;
  warn: (warning: SkillWarning) => void;
  guard: RequestGuard;
  budget: ResponseBudget;
  /** Run before each answer: true when the app's server answers the skills methods itself (the one 404 then). */
  stepsAside?: (tell: (warning: SkillWarning) => void) => Promise<boolean>;
}

/** Answers a request under the prefix (true; a failure answers 500 and warns `request-failed`), or leaves it untouched (false). */
export type WellKnownHandle = (req: IncomingMessage & { auth?: unknown }, res: ServerResponse, context: Record<string, unknown>) => Promise<boolean>;

/** The route over `parts`: the guard first, then each answer in the request's context and under the budget. */
export function wellKnownHandle({ service, source, warn, guard, budget, stepsAside }: WellKnownParts): WellKnownHandle {
  const tellOnce = tellFor(source, warn);
  const deps = {
    answers: new WellKnownAnswers(service, tellOnce),
    ...(stepsAside ? { stepsAside: () => stepsAside(tellOnce) } : {}),
    admit(req: IncomingMessage, res: ServerResponse) {
      const refusal = guard.check(req);
      if (!refusal) return true;
      sendRefusal(res, refusal);
      discardBody(req);
      return false;
    },
    within<T>(
      req: IncomingMessage & { auth?: unknown },
      context: Record<string, unknown>,
      subject: string,
      work: (ctx: SkillContext) => Promise<T>,
      size: (answer: T) => number,
    ) {
      const closed = new AbortController();
      const onClose = () => closed.abort(new Error('the client closed the connection'));
      req.socket?.once('close', onClose);
      const run = () => budget.count(subject, () => work(contextFromExtra({ signal: closed.signal })), size);
      return runWithSkillContext(contextOfRequest(req, context), () => budget.run(req.socket, run)).finally(() => req.socket?.off('close', onClose));
    },
  };
  return async (req, res, context) => {
    try {
      return await handleWellKnown(deps, req, res, context);
    } catch (error) {
      // One answer and one warning behind every adapter; the cause (a storage's, with its paths) never reaches the client.
      if (res.headersSent) res.end();
      else res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Internal error\n');
      // A client that hung up ended its own request: nothing failed.
      if (!req.socket?.destroyed) {
        warn({ code: 'request-failed', message: `/.well-known/agent-skills request failed: ${describeError(error).slice(0, 300)}` });
      }
      return true;
    }
  };
}
