/**
 * The client's side of `search_skills`: whether the server lists the tool, and its answer, checked
 * and bounded (a hostile server is bounded as on every other method), as the URIs to get.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as z from 'zod';
import { SEARCH_TOOL_NAME } from '../protocol/constants.js';
import { SEARCH_LIMITS } from '../search/limits.js';
import { visibleLine } from '../text/visible.js';
import { SkillResultError } from './errors.js';
import type { RequestOptions } from './types.js';

/** `tools/list` pages looked through for the tool: a server with more tools than this many pages hold is asked no further. */
const MAX_TOOL_PAGES = 20;
const { maxQueryLength: MAX_SEARCH_QUERY_LENGTH, maxLimit: MAX_SEARCH_LIMIT } = SEARCH_LIMITS;
const METHOD = `tools/call ${SEARCH_TOOL_NAME}`;

/** A tools/call result, loosely: the SDK's own schema lives in a module the client entry point does not load. */
const ToolResultSchema = z.looseObject({
  content: z.array(z.unknown()).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

const MatchesSchema = z.object({
  skills: z.array(z.looseObject({ uri: z.string().min(1).max(8192) })).max(MAX_SEARCH_LIMIT),
  nextCursor: z.string().max(8192).optional(),
});

/**
 * Check `search()`'s arguments before anything is asked.
 * @throws TypeError naming what is wrong.
 */
export function checkSearchArguments(query: unknown, params: { limit?: unknown; cursor?: unknown }): void {
  if (typeof query !== 'string' || query.trim() === '' || query.length > MAX_SEARCH_QUERY_LENGTH) {
    throw new TypeError(`search(query): the query must be a string of 1 to ${MAX_SEARCH_QUERY_LENGTH} characters, not only spaces, e.g. "refund a payment"`);
  }
  const { limit, cursor } = params ?? {};
  if (limit !== undefined && (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_SEARCH_LIMIT)) {
    throw new TypeError(`search(query, { limit }): limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, got ${String(limit)}`);
  }
  if (cursor !== undefined && (typeof cursor !== 'string' || cursor === '')) {
    throw new TypeError('search(query, { cursor }): cursor must be the nextCursor of an earlier search for the same query');
  }
}

/** Whether the server lists `search_skills` among its tools (its first MAX_TOOL_PAGES pages). */
export async function offersSearchTool(client: Client, options?: RequestOptions): Promise<boolean> {
  if (!client.getServerCapabilities()?.tools) return false;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    if (listed.tools.some((tool) => tool.name === SEARCH_TOOL_NAME)) return true;
    cursor = listed.nextCursor;
    if (cursor === undefined) return false;
  }
  return false;
}

/**
 * Call the tool: the matches' SKILL.md URIs in order, and the next cursor.
 * @throws {@link SkillResultError} when the tool answers with an error (its text says why) or malformed matches.
 */
export async function callSearchTool(
  client: Client,
  query: string,
  params: { limit: number; cursor?: string },
  options?: RequestOptions,
): Promise<{ uris: string[]; nextCursor?: string }> {
  const args = { query, limit: params.limit, ...(params.cursor !== undefined ? { cursor: params.cursor } : {}) };
  const result = await client.callTool({ name: SEARCH_TOOL_NAME, arguments: args }, ToolResultSchema as never, options);
  if (result.isError) {
    const content = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
    const said = content.find((item) => item.type === 'text' && typeof item.text === 'string')?.text as string | undefined;
    const text = said ?? 'no reason given';
    throw new SkillResultError(METHOD, `${SEARCH_TOOL_NAME} refused the search: ${visibleLine(text, { maxGraphemes: 500 })}`);
  }
  const parsed = MatchesSchema.safeParse(result.structuredContent);
  if (!parsed.success || parsed.data.skills.length > params.limit) {
    throw new SkillResultError(
      METHOD,
      `${SEARCH_TOOL_NAME} answered without { skills: [{ uri }…] (at most ${params.limit}), nextCursor? } in structuredContent; nothing was used`,
    );
  }
  return { uris: parsed.data.skills.map((match) => match.uri), ...(parsed.data.nextCursor !== undefined ? { nextCursor: parsed.data.nextCursor } : {}) };
}
