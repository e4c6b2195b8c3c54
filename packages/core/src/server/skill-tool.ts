/**
 * Adding one of skillmount's tools (`read_skill`, `search_skills`) to the app's server: on an
 * McpServer with `registerTool`; on a low-level Server by joining the app's own `tools/list` and
 * `tools/call` handlers (the tool goes on the first page of the list, every other call goes to the
 * app). A tool of the same name on the app's server is refused, at start where it can be seen.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod';
import { internalError, invalidParams } from '../errors.js';
import { OptionError } from '../option-error.js';
import { LooseCallToolRequestSchema, LooseListToolsRequestSchema } from '../protocol/schemas.js';
import { wrapInstalledHandler, type RawHandler } from '../sdk/seams.js';
import type { ExtraLike } from '../context/store.js';
import type { SkillWarning } from '../types.js';
import { appHandler } from './app-handler.js';

export interface SkillTool {
  name: string;
  title: string;
  description: string;
  inputShape: z.ZodRawShape;
  outputShape?: z.ZodRawShape;
  /** The option that adds the tool: named when the app already has a tool by this name. */
  option: string;
  call: (args: unknown, extra: ExtraLike | undefined) => Promise<unknown>;
  warn: (warning: SkillWarning) => void;
}

const ANNOTATIONS = { readOnlyHint: true, openWorldHint: false };

/** Add `tool` to `server`; the returned function takes it back (an McpServer's), for attach to undo a refused step. */
export function installTool(server: McpServer | Server, isMcp: boolean, low: Server, tool: SkillTool): (() => void) | undefined {
  const { name, title, description, inputShape, outputShape, call } = tool;
  if (isMcp) {
    let registered: { remove(): void } | undefined;
    try {
      registered = (server as McpServer).registerTool(
        name,
        { title, description, inputSchema: inputShape, ...(outputShape ? { outputSchema: outputShape } : {}), annotations: ANNOTATIONS },
        (args, extra) => call(args, extra) as never,
      );
    } catch (error) {
      if (/already registered/.test((error as Error).message)) throw toolTaken(tool);
      throw error;
    }
    return () => registered?.remove();
  }
  const definition = {
    name,
    title,
    description,
    inputSchema: z.toJSONSchema(z.object(inputShape), { io: 'input' }) as Record<string, unknown>,
    ...(outputShape ? { outputSchema: z.toJSONSchema(z.object(outputShape), { io: 'output' }) as Record<string, unknown> } : {}),
    annotations: ANNOTATIONS,
  };
  const appList = appHandler(low, 'tools/list');
  const appCall = appHandler(low, 'tools/call');
  if (!appList) low.registerCapabilities({ tools: {} });
  const list: RawHandler = async (request, extra) => {
    const params = (request.params ?? {}) as { cursor?: unknown };
    const theirs = appList ? ((await appList(request, extra)) as { tools?: { name?: unknown }[] }) : { tools: [] };
    // The app's later pages are its own; the tool goes on the first.
    if (params.cursor !== undefined) return theirs;
    if (theirs.tools?.some((other) => other.name === name)) {
      tool.warn({ code: 'tool-name-taken', message: toolTaken(tool).message });
      throw internalError(`The server has two tools named ${name}; its operator must rename one`);
    }
    return { ...theirs, tools: [...(theirs.tools ?? []), definition] };
  };
  const callTool: RawHandler = async (request, extra) => {
    const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown };
    if (params.name === name) return call(params.arguments, extra as ExtraLike);
    if (appCall) return appCall(request, extra);
    throw invalidParams(`Tool ${String(params.name).slice(0, 100)} not found`);
  };
  if (!(appList && wrapInstalledHandler(low, 'tools/list', () => list))) low.setRequestHandler(LooseListToolsRequestSchema, list as never);
  if (!(appCall && wrapInstalledHandler(low, 'tools/call', () => callTool))) low.setRequestHandler(LooseCallToolRequestSchema, callTool as never);
  return undefined;
}

function toolTaken(tool: SkillTool): OptionError {
  return new OptionError(
    'conflicting-options',
    tool.option,
    `adds a tool named "${tool.name}", and this server already has a tool by that name; rename the app's tool, or leave ${tool.option} off`,
  );
}
