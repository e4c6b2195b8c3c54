/**
 * At start-up, the checks `tools` and `prompts` make of the app's server (a tool of its own named
 * `read_skill`, say) run on one server from its factory, so a clash fails the start, not a request.
 */
import { attach, type AttachOptions } from '../server/attach.js';
import type { SkillSource } from '../types.js';
import type { AnyMcpServer } from './types.js';

/** Build one server with `factory`, attach the skills to it as requests will, and close it; throws what attach throws. */
export async function checkServerSurfaces(
  factory: (() => AnyMcpServer | Promise<AnyMcpServer>) | undefined,
  source: SkillSource,
  options: AttachOptions,
): Promise<void> {
  if (!factory || (options.tools !== true && options.prompts !== true)) return;
  const server = await factory();
  try {
    attach(server, source, options);
  } finally {
    await server.close().catch(() => undefined);
  }
}
