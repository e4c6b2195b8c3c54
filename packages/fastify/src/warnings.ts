import { consoleWarning, escapeControls, type SkillWarning } from '@skillmount/core';
import type { FastifyInstance } from 'fastify';
import { NAME } from './options.js';

/** Report a warning; `cause`, when there is one, goes to the log line beside it (the app's `onWarning` gets the warning only). */
export type Warn = (warning: SkillWarning, cause?: unknown) => void;

/**
 * Where every warning of the plugin goes, the catalog's and the endpoint's included: the
 * `onWarning` option when given, else the app's logger at `warn` level, as a Fastify plugin
 * should (the console is the process's, not the app's). The line carries the warning object, so a
 * log query finds it by `warning.code`, and its message, escaped: it may hold names from storage.
 * An app without a logger (Fastify's default, `logger: false`, whose `app.log` drops every line)
 * gets them on the console instead: a skipped skill or a refused read must not go unseen. A
 * reload's warning the previous load told too (`repeated`) is not logged again.
 */
export function pluginWarnings(app: FastifyInstance, onWarning: ((warning: SkillWarning) => void) | undefined): Warn {
  if (onWarning) return (warning) => onWarning(warning);
  if (typeof app.log.level !== 'string') return (warning) => consoleWarning(warning);
  return (warning, cause) => {
    if (warning.repeated) return;
    app.log.warn(cause === undefined ? { warning } : { warning, err: cause }, escapeControls(warning.message, { lines: true }));
  };
}

/** A request the endpoint answered with 500 (or whose stream it ended): what failed. */
export function requestFailed(error: unknown): SkillWarning {
  const reason = error instanceof Error ? error.message : String(error);
  return { code: 'request-failed', message: `${NAME}: MCP request failed: ${reason}` };
}

/** Fastify's `requestTimeout` is 0 (none) unless the app sets it: a client may then hold a connection by sending its headers slowly. */
export const noRequestTimeout = (): SkillWarning => ({
  code: 'no-request-timeout',
  message:
    `${NAME}: this Fastify server has no requestTimeout, so a client may hold a connection open by sending its headers slowly; ` +
    `set Fastify({ requestTimeout: 30000 }) (the MCP route's bodies are timed by the bodyTimeout option)`,
});

/** Reports once that a skills request on the app's own route ran without `app.skills.run`, so the `context` option was not applied. */
export function contextNotAppliedOnce(warn: Warn): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    warn({
      code: 'context-not-applied',
      message:
        `${NAME}: a skills request on your own MCP route reached the skill source without the "context" option applied, ` +
        'so the source saw none of its fields (a per-tenant source then serves no skills). Wrap the transport call in run: ' +
        'await app.skills.run(request, () => transport.handleRequest(request.raw, reply.raw, request.body)). Reported once.',
    });
  };
}
