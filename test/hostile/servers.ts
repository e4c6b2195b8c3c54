import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import skillsPlugin, { type SkillsPluginOptions } from '@skillmount/fastify';
import { skillsMiddleware, type SkillsMiddlewareOptions } from '@skillmount/express';

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
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { framework, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
  }
  const skills = skillsMiddleware(options);
  await skills.ready;
  const app = express();
  app.use('/mcp', skills);
  const server = await new Promise<HttpServer>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(s)));
  });
  return {
    framework,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await skills.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
