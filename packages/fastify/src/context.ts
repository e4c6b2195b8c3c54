import type { FastifyRequest } from 'fastify';
import { NAME, type NormalizedOptions } from './options.js';

/**
 * The app's fields for one request, from the `context` option. Also copies `request.auth` to
 * `request.raw.auth` when only the former is set: the SDK's transport sees the Node request, and
 * reads the `AuthInfo` it hands to handlers from there.
 */
export async function requestContext(request: FastifyRequest, context: NormalizedOptions['context']): Promise<Record<string, unknown>> {
  const raw = request.raw as FastifyRequest['raw'] & { auth?: unknown };
  const auth = (request as FastifyRequest & { auth?: unknown }).auth;
  if (auth != null && raw.auth == null) raw.auth = auth;
  if (!context) return {};
  const fields = await context(request);
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new TypeError(
      `${NAME}: the "context" option must return an object (or a promise of one) of fields to add to the skill context; ` +
        `it returned ${fields === null ? 'null' : typeof fields}`,
    );
  }
  return fields;
}
