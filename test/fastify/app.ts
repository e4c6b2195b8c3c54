import Fastify, { type FastifyInstance } from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { listenFastify } from '../support/apps.js';

/** A Fastify app with the skills plugin, listening on a free loopback port. */
export async function startApp(options: SkillsPluginOptions, setup?: (app: FastifyInstance) => void | Promise<void>) {
  const app = Fastify();
  await setup?.(app);
  await app.register(skillsPlugin, options);
  const { url } = await listenFastify(app, options.path === undefined ? '/mcp' : options.path || '');
  return { app, url };
}
