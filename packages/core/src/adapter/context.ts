import { describeValue } from '../option-checks.js';

/** The `code` of the `TypeError` a request fails with when the `context` option returns anything but an object of fields. */
export const INVALID_CONTEXT = 'invalid-context';

/**
 * The fields the app's `context` option gives one request (none without the option), checked the
 * same way in every adapter: a plain object, or a promise of one. An array, `null`, a string or a
 * number is a mistake in the app's function, not a request to serve with no fields: it fails the
 * request with a `TypeError` (code `invalid-context`) that names the option and what to return, and
 * the adapter hands it to the framework's error handling, as it does an error the function throws.
 *
 * @example
 * ```ts
 * import { contextFields } from '@skillmount/core/adapter';
 *
 * const context = (request: Request) => ({ tenant: request.headers.get('x-tenant') });
 * const fields = await contextFields(context, new Request('http://localhost/mcp'), '@acme/skills-hono');
 * ```
 * @throws TypeError with `code: 'invalid-context'` (the promise rejects) when `context` returns anything but an
 * object of fields; what `context` itself throws, as it throws it.
 */
export async function contextFields<Request>(
  context: ((request: Request) => unknown) | undefined,
  request: Request,
  packageName: string,
): Promise<Record<string, unknown>> {
  if (!context) return {};
  const fields = await context(request);
  if (typeof fields === 'object' && fields !== null && !Array.isArray(fields)) return fields as Record<string, unknown>;
  const hint = Array.isArray(fields) ? '; to pass a list, put it in a field, e.g. ({ roles: [...] })' : '';
  const error = new TypeError(
    `${packageName}: the "context" option must return an object of fields to add to the skill context (or a promise of one), ` +
      `e.g. (request) => ({ tenant: request.headers["x-tenant"] }); it returned ${describeValue(fields)}${hint}`,
  );
  throw Object.assign(error, { code: INVALID_CONTEXT });
}
