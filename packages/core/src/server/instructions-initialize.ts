/**
 * The skills section added to a 2025-11-25 server's `initialize` answer: the SDK's own answer
 * (the app's instructions, capabilities, server info) goes out unchanged but for `instructions`,
 * which gets the section after the app's text. A session keeps what it was told here.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ExtraLike } from '../context/store.js';
import { seamMissing, wrapInstalledHandler } from '../sdk/seams.js';
import type { SkillWarning } from '../types.js';
import { isInProcess } from './in-process.js';
import { withSection } from './instructions.js';
import { wantsSection, type InstructionsPlan } from './instructions-option.js';
import { sectionOrNothing, type ListPage } from './instructions-section.js';

/**
 * Wrap `low`'s `initialize` handler (seam `request-handler-map`); `listFor(extra)` pages through
 * the skills the initializing client may see. Without the seam, instructions stay the app's and
 * `warn` hears it once.
 */
export function nameSkillsAtInitialize(
  low: Server,
  plan: InstructionsPlan,
  listFor: (extra: ExtraLike | undefined) => ListPage,
  warn: (warning: SkillWarning) => void,
): void {
  const took = wrapInstalledHandler(low, 'initialize', (initialize) => async (request, extra) => {
    const result = (await initialize(request, extra)) as Record<string, unknown>;
    const capabilities = (request.params as { capabilities?: unknown } | undefined)?.capabilities;
    if (isInProcess(low.transport) || !wantsSection(plan, capabilities)) return result;
    const signal = (extra as ExtraLike | undefined)?.signal;
    const section = await sectionOrNothing(plan, listFor(extra as ExtraLike | undefined), warn, signal);
    const own = typeof result.instructions === 'string' ? result.instructions : undefined;
    const instructions = withSection(own, section);
    return instructions === undefined ? result : { ...result, instructions };
  });
  if (!took) {
    seamMissing(warn, 'request-handler-map', "the server's instructions do not name its skills for clients without the Skills extension");
  }
}
