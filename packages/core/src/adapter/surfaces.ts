/**
 * At start-up, the checks `tools`, `prompts` and `search` make of the app's server (a tool of its own named
 * `read_skill`, say) run on one server from its factory, so a clash fails the start, not a request.
 */
import { attach, type AttachOptions } from '../server/attach.js';
import type { SkillSource } from '../types.js';
import type { AnyMcpServer } from './types.js';

/**
 * Build one server with `factory`, attach the skills to it as requests will, and close it; throws what attach throws.
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { memoryStorage, SkillCatalog } from '@skillmount/core';
 * import { checkServerSurfaces } from '@skillmount/core/adapter';
 *
 * const catalog = await SkillCatalog.load(memoryStorage());
 * const server = () => new McpServer({ name: 'my-server', version: '1.0.0' });
 * await checkServerSurfaces(server, catalog, { tools: true }); // fails at start-up if the app has its own read_skill tool
 * ```
 * @throws What {@link attach} throws for the factory's server (the promise rejects), such as an
 * {@link @skillmount/core!OptionError | OptionError} (`conflicting-options`) when the app's server already has a `read_skill` or `search_skills` tool.
 */
export async function checkServerSurfaces(
  factory: (() => AnyMcpServer | Promise<AnyMcpServer>) | undefined,
  source: SkillSource,
  options: AttachOptions,
): Promise<void> {
  if (!factory || (options.tools !== true && options.prompts !== true && options.search !== true)) return;
  const server = await factory();
  try {
    attach(server, source, options);
  } finally {
    await server.close().catch(() => undefined);
  }
}
