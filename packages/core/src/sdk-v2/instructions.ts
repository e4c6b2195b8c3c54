/**
 * The skills section of a server's `instructions` for an SDK v2 app's `createMcpHandler` factory,
 * built by the code that builds it for skillmount's own servers: the skills the request may see
 * (the `visible` rule, the request's tenant), within the same byte budget and time limit.
 */
import type { McpRequestContext } from '@modelcontextprotocol/server';
import { contextFields } from '../adapter/context.js';
import { contextFromExtra } from '../context/store.js';
import { checkSourceOption } from '../http/well-known-handler.js';
import { describeValue, optionFail } from '../option-checks.js';
import { serviceOptions } from '../server/attach.js';
import { SkillHandlers } from '../server/handlers.js';
import { withSection } from '../server/instructions.js';
import { checkInstructionsOption } from '../server/instructions-option.js';
import { sectionOrNothing } from '../server/instructions-section.js';
import type { SkillContext, SkillSource, SkillVisibility, SkillWarning } from '../types.js';
import { consoleWarning } from '../warnings/console.js';
import { warningSink } from '../warnings/sink.js';
import { headersOf } from './context.js';

/** What of the factory's `McpRequestContext` the section is built from: the request's auth and HTTP request. */
export type SkillsInstructionsRequest = Pick<McpRequestContext, 'authInfo' | 'requestInfo'>;

export interface SkillsInstructionsOptions<C extends SkillContext = SkillContext> {
  /** The app's own context fields for a request, from the factory's context (a tenant key, say), added after `auth` and `headers`. Default: none. */
  context?: (ctx: SkillsInstructionsRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Per-request visibility, besides the source's own `visible` (both must allow a skill); the same rule as `sdkV2Skills`'s. */
  visible?: SkillVisibility<C>;
  /** The whole section's size in UTF-8 bytes, from 512 to 65536. Default 2048. */
  maxBytes?: number;
  /** The section's first sentence, in place of the default one (one line, up to 300 UTF-8 bytes). */
  intro?: string;
  /**
   * Where a listing that failed or took too long (`instructions-failed`), and a skill left out because its line did not fit
   * (`instructions-line-skipped`), are reported. Default: the source's `warn`, else `console.warn`.
   */
  onWarning?: (warning: SkillWarning) => void;
}

/**
 * The instructions for one request: the app's own (`own`), a blank line, then the section naming
 * the skills the request may see; `own` alone when none is visible or the listing failed;
 * undefined when there is neither.
 */
export type SkillsInstructions = (ctx: SkillsInstructionsRequest, own?: string) => Promise<string | undefined>;

/**
 * The `instructions` that name a source's skills and their SKILL.md URIs, for hosts without the
 * Skills extension, per request: call the result in the `createMcpHandler` factory and pass it to
 * `new McpServer(info, { instructions })`. The same section skillmount's own servers send
 * (`instructions: true`): the skills `visible` and the tenant allow, within `maxBytes`, a listing
 * that fails or takes over 3 seconds leaving `own` alone. The factory does not see the client's
 * capabilities, so every client gets it, those that declared the Skills extension too.
 *
 * @example
 * ```ts
 * import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
 * import { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';
 * import { SkillCatalog } from '@skillmount/core';
 * import { sdkV2Skills, skillsInstructions } from '@skillmount/core/sdk-v2';
 * import { fsStorage } from '@skillmount/storage-fs';
 *
 * const catalog = await SkillCatalog.load(fsStorage('./skills'));
 * const skills = new SkillsExtension(sdkV2Skills(catalog));
 * const instructions = skillsInstructions(catalog, { maxBytes: 1024 });
 * const handler = createMcpHandler(async (ctx) => {
 *   const mcp = new McpServer({ name: 'my-app', version: '1.0.0' }, { instructions: await instructions(ctx, 'Tools for Acme invoices.') });
 *   skills.attach(mcp);
 *   return mcp;
 * });
 * ```
 * @throws {@link @skillmount/core!OptionError | OptionError} when `source` is not a skill source,
 * `context`, `visible` or `onWarning` is not a function, or `maxBytes` or `intro` is out of range.
 * The returned function rejects with what the `context` function throws, and with a `TypeError`
 * when it returns no object; a failed listing is not an error (`instructions-failed` to `onWarning`).
 */
export function skillsInstructions<C extends SkillContext = SkillContext>(
  source: SkillSource<C>,
  options: SkillsInstructionsOptions<C> = {},
): SkillsInstructions {
  const fail = optionFail('skillmount');
  const skills = checkSourceOption(source, fail);
  for (const name of ['context', 'onWarning'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function')
      fail('invalid-type', name, `must be a function, got ${describeValue(options[name])}`);
  }
  const { maxBytes, intro } = options;
  const given =
    maxBytes === undefined && intro === undefined ? undefined : { ...(maxBytes !== undefined ? { maxBytes } : {}), ...(intro !== undefined ? { intro } : {}) };
  // The same checks as the instructions option of the adapters, naming this function's own options.
  const plan = checkInstructionsOption(given, (code, option, detail) => fail(code, option.replace(/^instructions\./, ''), detail));
  const warn = warningSink(skills, options.onWarning, consoleWarning);
  const service = new SkillHandlers(skills, warn, serviceOptions({ visible: options.visible as SkillVisibility | undefined }));
  return async (ctx, own) => {
    const signal = ctx.requestInfo?.signal;
    const skillCtx = contextFromExtra({ authInfo: ctx.authInfo, requestInfo: { headers: headersOf(ctx.requestInfo) }, ...(signal ? { signal } : {}) });
    Object.assign(skillCtx, await contextFields(options.context, ctx, 'skillmount: skillsInstructions'));
    const section = await sectionOrNothing(plan, (cursor) => service.list(cursor, skillCtx), warn, signal);
    return withSection(own, section);
  };
}
