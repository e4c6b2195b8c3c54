import { MCP_CORS_OPTIONS } from '@skillmount/core';
import type { RequestHandler } from 'express';
import type { FastifyInstance } from 'fastify';
import { UsageError } from './usage.js';

/**
 * `--cors <origin>` (repeatable): the origins of browser hosts allowed to call the endpoint, as
 * browsers send them (`https://app.example.com`); undefined when the flag is absent. `*` is
 * refused: any page a user opens could then use the server from the user's machine or network.
 */
export function corsOrigins(values: string[] | undefined): string[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  return values.map((value) => {
    if (value === '*') {
      throw new UsageError(
        '--cors * would let any web page a user opens call this server from where the user is (loopback, the LAN, behind a VPN); ' +
          "name each browser host's origin instead, e.g. --cors https://app.example.com (repeat the flag for more)",
      );
    }
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    // The origin alone, as a browser sends it in Origin: a scheme, a host and a port, nothing more.
    if (origin === undefined || origin === 'null' || value.replace(/\/$/, '').toLowerCase() !== origin.toLowerCase()) {
      throw new UsageError(`--cors must be an origin such as https://app.example.com or http://localhost:5173 (no path), got "${value}"`);
    }
    return origin;
  });
}

/** `@fastify/cors` for `origins`, with the methods and headers MCP needs; registered before the skills plugin so a preflight is answered first. */
export async function useFastifyCors(app: FastifyInstance, origins: string[]): Promise<void> {
  const { default: cors } = await import('@fastify/cors');
  await app.register(cors, { origin: origins, ...MCP_CORS_OPTIONS });
}

/** The `cors` middleware for `origins`, with the methods and headers MCP needs, to mount before the skills router. */
export async function expressCors(origins: string[]): Promise<RequestHandler> {
  const { default: cors } = await import('cors');
  return cors({ origin: origins, ...MCP_CORS_OPTIONS });
}
