/**
 * What the endpoint does to every server it gets from the app's factory, in one place and in
 * this order, each step saying whether it took hold:
 * 1. `attach`: the skills methods, answered by the endpoint's one skills service (on an
 *    McpServer, the installed `resources/read` and `resources/list` handlers also get their params
 *    checked first);
 * 2. internal errors hidden: every handler the server looks up is wrapped, so a `-32603` tells
 *    the client no more than "Internal error" (the detail goes to `onWarning`);
 * 3. answers counted: every handler looked up is wrapped again, outside the first wrap, so the
 *    response budget holds the answer the client will get.
 * Steps 2 and 3 go through the SDK's request-handler map (seam `request-handler-map`, see
 * sdk/seams.ts); where it is missing, errors are hidden on the transport instead and answers run
 * unbounded, and `onWarning` hears each once.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { attachSkills, type AttachOptions } from '../server/attach.js';
import type { SkillHandlers } from '../server/handlers.js';
import type { SkillSource, SkillWarning } from '../types.js';
import type { ResponseBudget } from './budget.js';
import { hideInternalErrors } from '../sdk/internal-errors.js';

export interface EquipOptions {
  source: SkillSource;
  attach: AttachOptions;
  service: SkillHandlers;
  budget: ResponseBudget;
  warn: (warning: SkillWarning) => void;
}

/** Which of the steps that can fail took hold on a server. */
export interface Equipped {
  errorsHidden: boolean;
  answersCounted: boolean;
}

export function equipServer(server: McpServer | Server, options: EquipOptions): Equipped {
  attachSkills(server, options.source, options.attach, false, options.service);
  const errorsHidden = hideInternalErrors(server, options.warn);
  const answersCounted = options.budget.limitAnswers(server, options.warn);
  return { errorsHidden, answersCounted };
}
