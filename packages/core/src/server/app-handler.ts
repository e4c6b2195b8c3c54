/** The app's own request handlers on a low-level Server, for the surfaces that join them (tools, prompts). */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { installedHandler, type RawHandler } from '../sdk/seams.js';

/**
 * The app's handler for `method` on a low-level Server, or undefined when it has none. One it has
 * but this SDK release does not let skillmount reach (seam `request-handler-map`) is refused: the
 * tool or the prompts would replace it.
 */
export function appHandler(low: Server, method: string): RawHandler | undefined {
  const installed = installedHandler(low, method);
  if (installed) return installed;
  try {
    low.assertCanSetRequestHandler(method);
    return undefined;
  } catch {
    throw new Error(
      `skillmount: this Server has its own ${method} handler, which this @modelcontextprotocol/sdk release does not let skillmount ` +
        'join; leave tools and prompts off for it, or use an SDK release skillmount is tested with',
    );
  }
}
