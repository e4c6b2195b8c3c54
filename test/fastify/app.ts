import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';

/** A Fastify app with the skills plugin, listening on a free loopback port. */
export async function startApp(options: SkillsPluginOptions, setup?: (app: FastifyInstance) => void | Promise<void>) {
  const app = Fastify();
  await setup?.(app);
  await app.register(skillsPlugin, options);
  const url = await listen(app);
  return { app, url: `${url}${options.path === undefined ? '/mcp' : options.path || ''}` };
}

/** Listen on 127.0.0.1:0 and return the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Resolve with `promise`, or fail after `ms` saying what never happened. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
