import { originOf } from '../context/origin.js';
import type { SkillContext } from '../types.js';
import type { SkillRequestMessage } from './channels.js';

/**
 * The trace context of a skills request, when `ctx` is the context of an MCP request for
 * `method` (not a lookup a tool, a prompt, the instructions or `.well-known` made through the
 * same service): undefined otherwise. `uri`: what the request names, for the methods that name one.
 */
export function requestMessage(ctx: SkillContext, method: string, uri: string | undefined): SkillRequestMessage | undefined {
  const origin = originOf(ctx);
  const request = origin?.request;
  if (!origin || !request || request.method !== method) return undefined;
  return {
    method,
    era: origin.era,
    requestId: request.id,
    meta: request.meta,
    client: origin.client,
    uri,
    ctx,
  };
}
