import { contextFields } from '@skillmount/core/adapter';
import type { FastifyRequest } from 'fastify';
import { NAME, type NormalizedOptions } from './options.js';

/**
 * The app's fields for one request, from the `context` option (checked in core, as in every
 * adapter). Also copies `request.auth` to `request.raw.auth` when only the former is set: the
 * SDK's transport sees the Node request, and reads the `AuthInfo` it hands to handlers from there.
 */
export async function requestContext(request: FastifyRequest, context: NormalizedOptions['context']): Promise<Record<string, unknown>> {
  const raw = request.raw as FastifyRequest['raw'] & { auth?: unknown };
  const auth = (request as FastifyRequest & { auth?: unknown }).auth;
  if (auth != null && raw.auth == null) raw.auth = auth;
  return contextFields(context, request, NAME);
}
