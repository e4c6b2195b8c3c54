import { OptionError, type OptionErrorCode } from '@skillmount/core';
import { checkAdapterOptions, type CheckedAdapterOptions, type SkillsOrigin } from '@skillmount/core/adapter';
import type { FastifyRequest } from 'fastify';
import type { SkillsPluginOptions } from './types.js';

export const NAME = '@skillmount/fastify';

export type { SkillsOrigin };

export interface NormalizedOptions extends CheckedAdapterOptions<FastifyRequest> {
  path: string | false;
}

const fail = (code: OptionErrorCode, option: string, detail: string): never => {
  throw new OptionError(code, option, detail, NAME);
};

/**
 * Check every option once, at registration, so a mistake fails at start-up rather than on a
 * request: the options every adapter shares in core, then Fastify's own (`path`).
 */
export function normalizeOptions(options: SkillsPluginOptions | undefined): NormalizedOptions {
  const shared = checkAdapterOptions<FastifyRequest>(options!, NAME);
  const path = options!.path ?? '/mcp';
  if (path !== false && (typeof path !== 'string' || !path.startsWith('/'))) {
    const code = typeof path === 'string' ? 'invalid-value' : 'invalid-type';
    fail(
      code,
      'path',
      `must be a route path starting with "/" (e.g. "/mcp"), or false to mount no route, got ${typeof path === 'string' ? JSON.stringify(path) : String(path)}`,
    );
  }
  if (path === false) {
    // With no route of ours, these would do nothing; server, allowedHosts, allowedOrigins and bodyLimit still apply to app.skills.handleModern.
    if (options!.sessions !== undefined && options!.sessions !== false) {
      fail(
        'conflicting-options',
        'sessions',
        'only applies to the route the plugin mounts; with path: false, build and connect your own server and call app.skills.attach(server)',
      );
    }
    if (options!.bodyTimeout !== undefined) {
      fail(
        'conflicting-options',
        'bodyTimeout',
        "only applies to the route the plugin mounts; with path: false, Fastify reads your route's bodies: set Fastify({ requestTimeout })",
      );
    }
  }
  return { ...shared, path };
}
