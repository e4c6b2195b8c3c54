/**
 * `/.well-known/agent-skills/` for an app that serves MCP with something other than skillmount's
 * endpoint (the SDK v2's `createMcpHandler`, say): the endpoint's own route, request checks and
 * response budget, as one Node handler the app mounts on its own server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeValue, optionFail, type OptionFail } from '../option-checks.js';
import { serviceOptions } from '../server/attach.js';
import { SkillHandlers } from '../server/handlers.js';
import type { SkillContext, SkillReadHooks, SkillSource, SkillVisibility, SkillWarning } from '../types.js';
import { consoleWarning } from '../warnings/console.js';
import { warningSink } from '../warnings/sink.js';
import { ResponseBudget } from './budget.js';
import { createRequestGuard } from './guard.js';
import type { AllowedHosts } from './types.js';
import { wellKnownHandle } from './well-known.js';

const NAME = 'skillmount';

export interface WellKnownHandlerOptions<C extends SkillContext = SkillContext> {
  /** The skills to publish: a `SkillCatalog`, `tenantCatalogs(...)`, or the app's own source. */
  source: SkillSource<C>;
  /** Per-request visibility, besides the source's own `visible` (both must allow a skill), as `attach`'s option. */
  visible?: SkillVisibility<C>;
  /**
   * Which `Host` names (and `Origin` hosts) are answered, as `createSkillsEndpoint`'s option: a
   * list of names, `true` (localhost names only) or `false` (no check). Default: localhost names
   * for requests that arrive on a loopback address, no check elsewhere.
   */
  allowedHosts?: AllowedHosts;
  /** Origins besides the allowed hosts' own that a browser request may come from, as `createSkillsEndpoint`'s option. */
  allowedOrigins?: readonly string[];
  /** Where skipped skills (`well-known-skipped`) and failed requests (`request-failed`) are reported. Default: the source's `warn`, else `console.warn`. */
  onWarning?: (warning: SkillWarning) => void;
  /** Told of each skill downloaded (its archive, or its SKILL.md alone), with `via: 'well-known'`; see `SkillReadHooks`. */
  onSkillLoad?: SkillReadHooks['onSkillLoad'];
}

/**
 * Answers a GET or HEAD whose path has `/.well-known/agent-skills/` in it and resolves true;
 * resolves false for any other request, touching neither `req` nor `res`. `context` holds the
 * app's own fields for the request (a tenant key, say), added after `headers` and `req.auth`.
 */
export type WellKnownHandler = (req: IncomingMessage & { auth?: unknown }, res: ServerResponse, context?: Record<string, unknown>) => Promise<boolean>;

/**
 * The `/.well-known/agent-skills/` surface (the index and artifacts the `skills` installer reads)
 * as a Node handler, for an app whose MCP route is not skillmount's endpoint: the same route as
 * `createSkillsEndpoint({ wellKnown: true })`, with the same Host/Origin checks, response budget,
 * one 404 for anything the request may not see, and ETag/304. A failure of the source answers
 * 500 (`request-failed` to `onWarning`).
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { SkillCatalog, createWellKnownHandler } from '@skillmount/core';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * const wellKnown = createWellKnownHandler({ source: catalog, allowedHosts: ['skills.example.com'] });
 * const app = express();
 * app.use((req, res, next) => void wellKnown(req, res).then((answered) => answered || next(), next));
 * ```
 * @throws {@link OptionError} when `source` is not a skill source, when `visible` or `onWarning` is
 * not a function, or when `allowedHosts` or `allowedOrigins` is invalid.
 */
export function createWellKnownHandler<C extends SkillContext = SkillContext>(options: WellKnownHandlerOptions<C>): WellKnownHandler {
  const fail = optionFail(NAME);
  if (typeof options !== 'object' || options === null) fail('invalid-type', '', `must be an object with a source, got ${describeValue(options)}`);
  const source = checkSourceOption(options.source, fail);
  if (options.onWarning !== undefined && typeof options.onWarning !== 'function') {
    fail('invalid-type', 'onWarning', `must be a function (warning) => void, got ${describeValue(options.onWarning)}`);
  }
  const guard = createRequestGuard({ allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins }, NAME);
  const warn = warningSink(source, options.onWarning, consoleWarning);
  const budget = new ResponseBudget();
  const checked = serviceOptions({
    visible: options.visible as SkillVisibility | undefined,
    onSkillLoad: options.onSkillLoad as SkillReadHooks['onSkillLoad'],
  });
  const service = new SkillHandlers(source, warn, { ...checked, count: budget.count.bind(budget) });
  const handle = wellKnownHandle({ service, source, warn, guard, budget });
  return (req, res, context = {}) => handle(req, res, context);
}

/** The `source` option, checked: a skill source (`list` and `read` at least). */
export function checkSourceOption(value: unknown, fail: OptionFail): SkillSource {
  if (value === undefined) fail('missing-option', 'source', 'is missing: give the skills to publish, e.g. { source: await SkillCatalog.load(storage) }');
  const source = value as SkillSource | null;
  if (typeof source !== 'object' || source === null || typeof source.list !== 'function' || typeof source.read !== 'function') {
    fail('invalid-type', 'source', `must be a SkillSource (a SkillCatalog, tenantCatalogs(...)) with list and read methods, got ${describeValue(value)}`);
  }
  return source;
}
