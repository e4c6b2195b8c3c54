import express from 'express';
import Fastify from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';
import { listenExpressSkills, listenFastify } from '../support/apps.js';

export type Framework = 'fastify' | 'express';
export const FRAMEWORKS: readonly Framework[] = ['fastify', 'express'];

/** Options both adapters take alike. */
export type ServeOptions = SkillsPluginOptions & SkillsMiddlewareOptions;

export interface Served {
  framework: Framework;
  url: string;
  close(): Promise<void>;
}

/** Serve the skills with one adapter at `/mcp` on a free 127.0.0.1 port. */
export async function serve(framework: Framework, options: ServeOptions): Promise<Served> {
  if (framework === 'fastify') {
    const app = Fastify();
    await app.register(skillsPlugin, options);
    return { framework, ...(await listenFastify(app)) };
  }
  const skills = skillsMiddleware(options);
  await skills.ready;
  const app = express();
  return { framework, ...(await listenExpressSkills(app, skills)) };
}
