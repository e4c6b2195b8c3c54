/**
 * The opt-in `read_skill` tool, for hosts that show the model tools but not resources: reads a
 * skill's SKILL.md by name, or any file of a visible skill by URI, through the skills service
 * (visible(), digests, the budget) or the app's own `resources/read`. On an McpServer it is
 * registered with `registerTool`; on a low-level Server it joins the app's own tools handlers.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod';
import type { SkillProtocolError } from '../errors.js';
import { INVALID_PARAMS } from '../protocol/constants.js';
import { clientSafe } from '../sdk/internal-errors.js';
import { installTool } from './skill-tool.js';
import type { ExtraLike } from '../context/store.js';
import { visibleLine } from '../text/visible.js';
import type { SkillContext, SkillEntry, SkillWarning } from '../types.js';
import type { SkillHandlers } from './handlers.js';
import { contentOf, readSkillFile, ReadStepsAside, type AppRead } from './skill-read.js';
import { findSkill } from './skill-names.js';

export const READ_TOOL_NAME = 'read_skill';
/** Files of a skill named after its SKILL.md, at most: the rest are counted (a tool result is model context). */
const FILES_NAMED = 50;

const inputShape = {
  name: z.string().min(1).max(1024).optional().describe("A skill's name (or its path, e.g. acme/billing/refunds): returns its SKILL.md"),
  uri: z.string().min(1).max(8192).optional().describe('The URI of any file of a skill, e.g. skill://refunds/SKILL.md or skill://refunds/refs/policy.md'),
};
const inputObject = z.object(inputShape);

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: true };

export interface ReadToolDeps {
  handlers: SkillHandlers;
  appRead: AppRead;
  contextOf: (extra: ExtraLike | undefined) => SkillContext;
  warn: (warning: SkillWarning) => void;
}

/** The tool's description; it quotes the base URI, so it goes through the visible-text policy as skill text does. */
export function readToolDescription(base: string): string {
  return visibleLine(
    'Read an Agent Skill (instructions for a task) served by this MCP server. The skills are listed in the server instructions ' +
      `and as SKILL.md resources (resources/list). Give exactly one of: {"name": "<skill name>"} for its SKILL.md, or ` +
      `{"uri": "${base}<skill-path>/<file>"} for any file of a skill (SKILL.md names its other files by paths relative to its URI). ` +
      'Text files come back as text; binary files are described (type and size), not sent.',
  );
}

/** Add `read_skill` to `server`; refused (an OptionError naming the tool) when the app already has a tool by that name. */
export function installReadTool(server: McpServer | Server, isMcp: boolean, low: Server, deps: ReadToolDeps): (() => void) | undefined {
  return installTool(server, isMcp, low, {
    name: READ_TOOL_NAME,
    title: 'Read a skill',
    description: readToolDescription(deps.handlers.base.uri),
    inputShape,
    option: 'tools',
    call: (args, extra) => callReadTool(args, extra, deps),
    warn: deps.warn,
  });
}

/** The tool's answer: the file as text, or an `isError` result that says what to do (the same for a hidden skill as for a missing one). */
export async function callReadTool(args: unknown, extra: ExtraLike | undefined, deps: ReadToolDeps): Promise<ToolResult> {
  const parsed = inputObject.safeParse(args ?? {});
  if (!parsed.success || (parsed.data.name === undefined) === (parsed.data.uri === undefined)) {
    return failed(`${READ_TOOL_NAME} takes exactly one of "name" (a skill's name) or "uri" (a skill file's URI), e.g. {"name": "refunds"}`);
  }
  const { name, uri } = parsed.data;
  const ctx = deps.contextOf(extra);
  try {
    if (uri !== undefined) {
      if (!deps.handlers.serves(uri)) return notFound(uri, deps);
      return asResult(await readSkillFile(deps.handlers, deps.appRead, uri, extra, ctx, 'read_skill'));
    }
    const entry = await findSkill(deps.handlers, name!, ctx);
    if (!entry) return noSkill(name!);
    if ('shared' in entry)
      return failed(`${entry.shared.length} skills are named "${name}": give one of their paths as the name (${entry.shared.join(', ')}).`);
    const result = asResult(await readSkillFile(deps.handlers, deps.appRead, entry.uri, extra, ctx, 'read_skill'));
    return { content: [...result.content, { type: 'text', text: otherFiles(entry) }] };
  } catch (error) {
    if (error instanceof ReadStepsAside) return failed(error.message);
    // A missing skill or file and a hidden one fail alike: -32602, "not found".
    if ((error as { code?: unknown } | null)?.code === INVALID_PARAMS) return uri !== undefined ? notFound(uri, deps) : noSkill(name!);
    const safe = clientSafe(error, `tools/call ${READ_TOOL_NAME}`, deps.warn) as SkillProtocolError;
    return failed(safe.message);
  }
}

function asResult(read: Parameters<typeof contentOf>[0]): ToolResult {
  const content = contentOf(read);
  if ('text' in content) return { content: [{ type: 'text', text: content.text }] };
  // A tool result is model context: a binary file is described, not sent as base64 few hosts would show.
  const type = content.mimeType ?? 'application/octet-stream';
  return {
    content: [
      {
        type: 'text',
        text:
          `${content.uri} is a binary file (${type}, ${content.bytes} bytes); it is not shown as text. ` +
          'A host that reads MCP resources can fetch it with resources/read.',
      },
    ],
  };
}

function otherFiles(entry: SkillEntry): string {
  if (entry.resources === 'dynamic')
    return `Other files of this skill are under ${entry.uri.replace(/SKILL\.md$/, '')}; read them with ${READ_TOOL_NAME} {"uri": …}.`;
  const others = entry.resources.filter((file) => file.uri !== entry.uri);
  if (others.length === 0) return 'This skill has no other files.';
  const named = others.slice(0, FILES_NAMED).map((file) => `${file.uri} (${file.size} bytes)`);
  const more = others.length > FILES_NAMED ? `, and ${others.length - FILES_NAMED} more` : '';
  return `Other files of this skill (read each with ${READ_TOOL_NAME} {"uri": …}): ${named.join(', ')}${more}.`;
}

const failed = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

const notFound = (uri: string, deps: ReadToolDeps) =>
  failed(
    `No skill file is served at ${uri.slice(0, 300)}. Skills are listed in the server instructions and in resources/list; ` +
      `their URIs start with ${deps.handlers.base.uri}.`,
  );

const noSkill = (name: string) =>
  failed(`No skill named "${name.slice(0, 200)}" is served here. Skills are listed in the server instructions and in resources/list.`);
