import type { FastifyInstance, RouteOptions } from 'fastify';
import { NAME } from './options.js';

/**
 * An app that already has its own MCP route and registers the plugin with its default path gets
 * only Fastify's FST_ERR_DUPLICATED_ROUTE; these errors say what to do instead, whichever of the
 * two routes is added first.
 */

/** In the endpoint route's `config`, so the app's routes can be told from it. */
export const ENDPOINT_ROUTE = Symbol('@skillmount/fastify endpoint route');

const ENDPOINT_METHODS = ['GET', 'POST', 'DELETE'];
const DUPLICATED = 'FST_ERR_DUPLICATED_ROUTE';

function routeExists(where: string, cause?: unknown): Error {
  return new Error(
    `${NAME}: a route already exists at ${where}, where the plugin mounts its MCP endpoint (the "path" option, "/mcp" by default). ` +
      'To keep your own MCP route, register the plugin with path: false and mount the skills on your route ' +
      '(app.skills.attach(server) before connect(), and app.skills.handleModern(request, reply) first), ' +
      'as the README\'s "Adding skills to an existing MCP route" shows; or give the plugin another path',
    cause === undefined ? undefined : { cause },
  );
}

/** Add the endpoint's route, marked as the plugin's; Fastify's duplicate-route error is said in the plugin's words. */
export function addEndpointRoute(scope: FastifyInstance, route: RouteOptions): void {
  try {
    scope.route({ ...route, config: { ...route.config, [ENDPOINT_ROUTE]: true } });
  } catch (error) {
    if ((error as { code?: unknown })?.code !== DUPLICATED) throw error;
    throw routeExists(scope.prefix ? `${route.url} (under the prefix ${scope.prefix})` : route.url, error);
  }
}

/**
 * Refuse, with the same advice, an app route added after the plugin at the endpoint's URL: Fastify
 * would throw FST_ERR_DUPLICATED_ROUTE from the app's own `app.post('/mcp', …)` call.
 */
export function refuseRoutesOnEndpoint(app: FastifyInstance): void {
  let endpointUrl: string | undefined;
  app.addHook('onRoute', (route) => {
    if ((route.config as Record<symbol, unknown> | undefined)?.[ENDPOINT_ROUTE]) {
      endpointUrl = route.url;
      return;
    }
    if (endpointUrl === undefined || route.url !== endpointUrl) return;
    const methods = [route.method].flat().map(String);
    const clashing = methods.filter((method) => ENDPOINT_METHODS.includes(method.toUpperCase()));
    if (clashing.length > 0) throw routeExists(`${clashing.join(', ')} ${route.url}`);
  });
}
