/**
 * Skills as MCP prompts (opt-in), for hosts that offer prompts as slash commands: each skill the
 * request may see is a prompt named for the skill (by its path where two share a name), whose
 * `prompts/get` answers the SKILL.md as an embedded resource. Joined to the app's own prompts:
 * an app prompt's name is answered by the app first; the app's own handlers stay in place.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SkillProtocolError, internalError, invalidParams } from '../errors.js';
import { INVALID_PARAMS, SKILL_MD_MIME } from '../protocol/constants.js';
import { LooseGetPromptRequestSchema, LooseListPromptsRequestSchema } from '../protocol/schemas.js';
import { wrapInstalledHandler, type RawHandler } from '../sdk/seams.js';
import type { ExtraLike } from '../context/store.js';
import { skillVersion } from '../text/skill-version.js';
import { visibleLine } from '../text/visible.js';
import type { SkillContext, SkillEntry } from '../types.js';
import type { SkillHandlers } from './handlers.js';
import { mergedPage, type Page } from './merged-pages.js';
import { optionalCursor, paramsObject } from './params.js';
import { appHandler } from './app-handler.js';
import { contentOf, readSkillFile, ReadStepsAside, type AppRead } from './skill-read.js';
import { findSkill, namedSkills, visibleSkills } from './skill-names.js';

export interface SkillPromptsDeps {
  handlers: SkillHandlers;
  appRead: AppRead;
  contextOf: (extra: ExtraLike | undefined) => SkillContext;
}

export interface Prompt {
  name: string;
  description?: string;
}

/** A prompt name no app would choose: registered and removed at once, so McpServer installs its prompt handlers. */
const PROBE = 'skillmount\u0000probe';

/** Serve the skills as prompts on `server`, beside the app's own prompts (registered before or after). */
export function installSkillPrompts(server: McpServer | Server, isMcp: boolean, low: Server, deps: SkillPromptsDeps): void {
  // McpServer's own handlers answer its registered prompts, and stay its: registerPrompt keeps working after attach.
  if (isMcp) {
    try {
      (server as McpServer).registerPrompt(PROBE, {}, () => ({ messages: [] })).remove();
    } catch {
      // The app set prompts handlers of its own on mcp.server: those are joined below.
    }
  }
  const appList = appHandler(low, 'prompts/list');
  const appGet = appHandler(low, 'prompts/get');
  low.registerCapabilities({ prompts: { listChanged: true } });

  const list: RawHandler = async (request, extra) => {
    const cursor = optionalCursor(paramsObject(request.params, 'prompts/list'), 'prompts/list');
    const ctx = deps.contextOf(extra as ExtraLike);
    const skills = async (at: string | undefined): Promise<Page<Prompt>> => {
      // Asked only once the cursor is known to be one this server gave (mergedPage checks it first).
      const names = new Map<string, string>();
      for (const [name, entry] of namedSkills(await visibleSkills(deps.handlers, ctx), deps.handlers.base)) names.set(entry.uri, name);
      const page = await deps.handlers.list(at, ctx);
      return { items: page.skills.map((entry) => promptOf(entry, names.get(entry.uri) ?? entry.frontmatter.name)), nextCursor: page.nextCursor };
    };
    const app = appList
      ? async (at: string | undefined): Promise<Page<Prompt>> => {
          const page = (await appList({ method: 'prompts/list', params: at === undefined ? {} : { cursor: at } }, extra)) as {
            prompts?: Prompt[];
            nextCursor?: string;
          };
          return { items: page.prompts ?? [], nextCursor: page.nextCursor };
        }
      : undefined;
    const page = await mergedPage(cursor, 'prompts/list', skills, app);
    return { prompts: page.items, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
  };

  const get: RawHandler = async (request, extra) => {
    const params = paramsObject(request.params, 'prompts/get');
    if (typeof params.name !== 'string' || params.name.length === 0 || params.name.length > 1024) {
      throw invalidParams('prompts/get: params.name is required and must be a prompt name from prompts/list');
    }
    let theirs: unknown;
    if (appGet) {
      try {
        return await appGet(request, extra);
      } catch (error) {
        // The app's "not found" (or its refusal of the arguments) lets a skill answer; its other failures are its answer.
        if ((error as { code?: unknown } | null)?.code !== INVALID_PARAMS) throw error;
        theirs = error;
      }
    }
    const ctx = deps.contextOf(extra as ExtraLike);
    const entry = await findSkill(deps.handlers, params.name, ctx);
    // A shared name is not a prompt name: prompts/list names those skills by their paths.
    if (!entry || 'shared' in entry) throw theirs ?? invalidParams(`Prompt ${params.name.slice(0, 100)} not found`);
    return promptResult(entry, extra as ExtraLike, ctx, deps);
  };

  if (!(appList && wrapInstalledHandler(low, 'prompts/list', () => list))) low.setRequestHandler(LooseListPromptsRequestSchema, list as never);
  if (!(appGet && wrapInstalledHandler(low, 'prompts/get', () => get))) low.setRequestHandler(LooseGetPromptRequestSchema, get as never);
}

/** A skill as `prompts/list` shows it: the description as a person and a model see it alike (text/visible.ts). */
export function promptOf(entry: SkillEntry, name: string): Prompt {
  return { name, description: promptDescription(entry) };
}

/**
 * The description a host shows beside the prompt (its slash-command menu), with the skill's version
 * after it when it has one (`Formats invoices. (version 1.2.0)`), both through the text policy.
 */
function promptDescription(entry: SkillEntry): string {
  const description = visibleLine(entry.frontmatter.description);
  const version = skillVersion(entry.frontmatter);
  return version === undefined ? description : `${description} (version ${version})`;
}

/** The prompt of one skill: its SKILL.md as an embedded resource, and where its other files are. */
async function promptResult(entry: SkillEntry, extra: ExtraLike, ctx: SkillContext, deps: SkillPromptsDeps) {
  let read;
  try {
    read = contentOf(await readSkillFile(deps.handlers, deps.appRead, entry.uri, extra, ctx, 'prompts/get'));
  } catch (error) {
    if (error instanceof ReadStepsAside) throw internalError(`${entry.uri} cannot be read for this prompt: ${error.message}`);
    // The skill went away (or out of sight) between the list and the read: as a prompt that is not there.
    if (error instanceof SkillProtocolError && error.code === INVALID_PARAMS) throw invalidParams(`Prompt for ${entry.uri} not found`);
    throw error;
  }
  if (!('text' in read)) throw internalError(`${entry.uri} is not UTF-8 text`);
  const folder = entry.uri.slice(0, entry.uri.length - 'SKILL.md'.length);
  return {
    // The description as a person and a model see it alike; the SKILL.md below is served as published (its digest says so).
    description: promptDescription(entry),
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: read.uri, text: read.text, mimeType: read.mimeType ?? SKILL_MD_MIME } } },
      {
        role: 'user',
        content: {
          type: 'text',
          text: `The skill above is ${read.uri}. Its other files are under ${folder}: read one with resources/read at its path relative to the SKILL.md URI.`,
        },
      },
    ],
  };
}
