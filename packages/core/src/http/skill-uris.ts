import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SkillNotFoundError } from '../errors.js';
import { parseSkillUri, skillUriKey } from '../uri/canonical.js';
import { wrapHandlerLookups } from './handler-map.js';

const EXACT = Symbol.for('skillmount.exactSkillUris');
/** Longer URIs are left to the handler, which refuses them with its own message. */
const CHECKED_LENGTH = 8192;

/** Why McpServer would serve `uri` as another URI than the one it names, or undefined. */
function nonCanonical(uri: string): string | undefined {
  const parsed = parseSkillUri(uri);
  if (!parsed.ok) return parsed.error;
  let resolved: ReturnType<typeof parseSkillUri>;
  try {
    resolved = parseSkillUri(new URL(uri).href);
  } catch {
    return 'not a valid URL';
  }
  if (!resolved.ok || skillUriKey(resolved.segments) !== skillUriKey(parsed.segments)) return 'the URI resolves to another path than it spells';
  return undefined;
}

/**
 * Refuse `resources/read` of a `skill://` URI with dot segments (`..`, `%2e%2e`), encoded slashes,
 * backslashes, NUL, a query or a fragment, with `-32602` as for any unknown file. McpServer
 * resolves `skill://a/refs/../SKILL.md` to `skill://a/SKILL.md` before a resource template sees it,
 * (and drops an empty userinfo, `skill://@a/…`), so without this such spellings would be served;
 * `skills/get` and `resources/directory/read` already refuse them.
 */
export function refuseUnsafeSkillUris(server: McpServer | Server): void {
  wrapHandlerLookups(server, EXACT, (handler, method) => {
    if (method !== 'resources/read') return handler;
    return async (request, extra) => {
      const uri = (request.params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string' && uri.length <= CHECKED_LENGTH && /^skill:/i.test(uri)) {
        const problem = nonCanonical(uri);
        if (problem) throw new SkillNotFoundError(`Resource ${uri} not found (${problem})`, uri);
      }
      return handler(request, extra);
    };
  });
}
