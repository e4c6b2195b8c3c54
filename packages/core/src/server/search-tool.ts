/**
 * The opt-in `search_skills` tool, for hosts (and models) that look for a skill by what it does:
 * the skills a request may see that match a query, best first, as name, description and SKILL.md
 * URI, through the skills service (visible(), tenants, the budget) or, when the app answers
 * `skills/list` itself, over what its handler lists. On an McpServer it is registered with
 * `registerTool`; on a low-level Server it joins the app's own tools handlers.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod';
import { type SkillProtocolError, invalidParams } from '../errors.js';
import { INVALID_PARAMS, METHOD_SKILLS_LIST, SEARCH_TOOL_NAME } from '../protocol/constants.js';
import { clientSafe } from '../sdk/internal-errors.js';
import type { RawHandler } from '../sdk/seams.js';
import { SEARCH_LIMITS } from '../search/limits.js';
import { searchEntries } from '../search/search.js';
import { installTool } from './skill-tool.js';
import type { ExtraLike } from '../context/store.js';
import { visibleLine } from '../text/visible.js';
import { entryProblems } from '../entry/validate.js';
import type { SkillContext, SkillEntry, SkillWarning } from '../types.js';
import type { SkillHandlers } from './handlers.js';
import { isPlainUri, skillLine } from './instructions.js';
import { MAX_SEARCH_PAGES, type SearchAsk } from './source-search.js';
import { allListed } from './listed-pages.js';
import { searchRefusal } from './search-refusal.js';

/** Longest cursor, in characters: the index's cursors are far shorter. */
const MAX_CURSOR_LENGTH = 1024;

const { maxQueryLength: MAX_SEARCH_QUERY_LENGTH, maxLimit: MAX_SEARCH_LIMIT, defaultLimit: DEFAULT_SEARCH_LIMIT } = SEARCH_LIMITS;

const inputShape = {
  query: z.string().min(1).max(MAX_SEARCH_QUERY_LENGTH).describe('What the skill should do, in a few words, e.g. "refund a payment"'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Results on this page (1 to ${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT})`),
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional().describe('The nextCursor of an earlier answer to the same query, for the next page'),
};
const inputObject = z.object(inputShape);

const matchShape = z.object({ name: z.string(), description: z.string(), uri: z.string() });
const outputShape = { skills: z.array(matchShape), nextCursor: z.string().optional() };

/** One match as the tool answers it. */
export interface SearchMatch {
  name: string;
  description: string;
  uri: string;
}

export type SearchToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: { skills: SearchMatch[]; nextCursor?: string };
  isError?: true;
};

export interface SearchToolDeps {
  handlers: SkillHandlers;
  /** The app's own `skills/list` handler, when the app answers that method itself: the search ranks what it lists. */
  appList: () => RawHandler | undefined;
  contextOf: (extra: ExtraLike | undefined) => SkillContext;
  warn: (warning: SkillWarning) => void;
}

/** The tool's description; it quotes the base URI, so it goes through the visible-text policy as skill text does. */
export function searchToolDescription(base: string): string {
  return visibleLine(
    'Find Agent Skills (instructions for tasks) served by this MCP server by what they do: give {"query": "<a few words>"}; ' +
      `the matching skills come back best first, each with its name, description and SKILL.md URI (${base}<skill-path>/SKILL.md). ` +
      `Read a skill's SKILL.md with resources/read, or read_skill where offered. Optional: "limit" (1 to ${MAX_SEARCH_LIMIT}), ` +
      'and "cursor" (the nextCursor of the previous answer) for more results.',
  );
}

/**
 * The arguments of `SkillsService.search`, checked as the tool checks them.
 * @throws SkillProtocolError -32602 naming what is wrong.
 */
export function searchAsk(query: unknown, options: unknown): SearchAsk {
  const given = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
  const parsed = inputObject.safeParse({
    query,
    ...(given.limit !== undefined ? { limit: given.limit } : {}),
    ...(given.cursor !== undefined ? { cursor: given.cursor } : {}),
  });
  if (!parsed.success) throw invalidParams(argumentProblem(parsed.error));
  return parsed.data;
}

/** Add `search_skills` to `server`; refused (an OptionError naming the tool) when the app already has a tool by that name. */
export function installSearchTool(server: McpServer | Server, isMcp: boolean, low: Server, deps: SearchToolDeps): (() => void) | undefined {
  return installTool(server, isMcp, low, {
    name: SEARCH_TOOL_NAME,
    title: 'Search skills',
    description: searchToolDescription(deps.handlers.base.uri),
    inputShape,
    outputShape,
    option: 'search',
    call: (args, extra) => callSearchTool(args, extra, deps),
    warn: deps.warn,
  });
}

/** The tool's answer: the matches, or an `isError` result that says what was wrong with the arguments. */
export async function callSearchTool(args: unknown, extra: ExtraLike | undefined, deps: SearchToolDeps): Promise<SearchToolResult> {
  const parsed = inputObject.safeParse(withoutUndefined(args));
  if (!parsed.success) return failed(argumentProblem(parsed.error));
  const ask = parsed.data;
  const ctx = deps.contextOf(extra);
  try {
    const own = deps.appList();
    const page = own ? await searchAppList(own, ask, extra) : await deps.handlers.search({ ...ask, limit: ask.limit ?? DEFAULT_SEARCH_LIMIT }, ctx);
    return answer(ask.query, page.skills, page.nextCursor);
  } catch (error) {
    // A bad query or cursor: the index's own words for what was wrong.
    if ((error as { code?: unknown } | null)?.code === INVALID_PARAMS) return failed(`${(error as Error).message}`);
    const safe = clientSafe(error, `tools/call ${SEARCH_TOOL_NAME}`, deps.warn) as SkillProtocolError;
    return failed(safe.message);
  }
}

/** McpServer hands a tool its arguments with every declared key; those left out are undefined. */
function withoutUndefined(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args ?? {};
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}

/** The app answers skills/list itself: rank what its handler lists (its pages walked, bounded), as a source that cannot search. */
async function searchAppList(own: RawHandler, ask: SearchAsk, extra: ExtraLike | undefined) {
  const skills = await allListed(async (cursor) => {
    const listed = (await own({ method: METHOD_SKILLS_LIST, params: cursor === undefined ? {} : { cursor } }, extra)) as {
      skills?: unknown;
      nextCursor?: unknown;
    };
    return {
      skills: (Array.isArray(listed?.skills) ? listed.skills : []).filter((entry): entry is SkillEntry => entryProblems(entry).length === 0),
      nextCursor: typeof listed?.nextCursor === 'string' ? listed.nextCursor : undefined,
    };
  }, MAX_SEARCH_PAGES);
  try {
    return searchEntries(skills, ask.query, { limit: ask.limit ?? DEFAULT_SEARCH_LIMIT, ...(ask.cursor !== undefined ? { cursor: ask.cursor } : {}) });
  } catch (error) {
    throw searchRefusal(error);
  }
}

function argumentProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? `"${issue.path.join('.')}"` : 'the arguments';
  const what =
    issue?.path[0] === 'query'
      ? `must be a string of 1 to ${MAX_SEARCH_QUERY_LENGTH} characters`
      : issue?.path[0] === 'limit'
        ? `must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`
        : issue?.path[0] === 'cursor'
          ? 'must be the nextCursor string of an earlier answer to the same query'
          : 'must be an object';
  return `${SEARCH_TOOL_NAME}: ${where} ${what}. Call it as {"query": "refund a payment"}, with "limit" and "cursor" optional.`;
}

function answer(query: string, skills: readonly SkillEntry[], nextCursor: string | undefined): SearchToolResult {
  const matches: SearchMatch[] = skills.map((entry) => ({
    name: entry.frontmatter.name,
    description: visibleLine(typeof entry.frontmatter.description === 'string' ? entry.frontmatter.description : ''),
    uri: entry.uri,
  }));
  const shown = JSON.stringify(visibleLine(query, { maxGraphemes: 100 }));
  const lines =
    matches.length === 0
      ? [`No skill matches ${shown}${nextCursor === undefined ? '' : ' on this page'}. Try other words, or see every skill in resources/list.`]
      : [
          `Skills matching ${shown}, best first:`,
          ...matches.map((match) => skillLine({ ...match, uri: plainUri(match.uri) })),
          "Read a skill's SKILL.md with resources/read (or read_skill, where offered) before the task it is for.",
        ];
  if (nextCursor !== undefined) lines.push(`More matches: call ${SEARCH_TOOL_NAME} with the same query and {"cursor": ${JSON.stringify(nextCursor)}}.`);
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { skills: matches, ...(nextCursor !== undefined ? { nextCursor } : {}) },
  };
}

/** A URI as it may stand between angle brackets in the text: percent-encoded where it is not plain. */
function plainUri(uri: string): string {
  if (isPlainUri(uri)) return uri;
  try {
    return encodeURI(uri);
  } catch {
    return '(see structuredContent)';
  }
}

const failed = (text: string): SearchToolResult => ({ content: [{ type: 'text', text }], isError: true });
