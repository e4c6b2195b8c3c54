/**
 * Starting an app on a free loopback port (127.0.0.1, port 0) and closing it: Express, Fastify,
 * or a bare node:http handler. `close()` also drops kept-alive connections, so a test file can exit.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { FastifyInstance } from 'fastify';
import type { SkillsRouter } from '@skillmount/express';

export interface Listening {
  /** `http://127.0.0.1:<port>` followed by the path given. */
  url: string;
  close(): Promise<void>;
}

const urlOf = (server: Server, path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

/**
 * Idle connections stay open until `close()`: a server that closes one on a timer races a client in
 * the same process that sends on it in the same turn of a stalled event loop (apps.test.ts). The
 * client's own idle timer (4 s for fetch) closes it from its side, which cannot race.
 */
export const keepIdleConnections = <S extends Server>(server: S): S => {
  server.keepAliveTimeout = 0;
  return server;
};

const closeServer = (server: Server) =>
  new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });

/** An Express app, listening; `url` ends in `path` (`/mcp` unless given). */
export async function listenExpress(app: Express, path = '/mcp'): Promise<Listening> {
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(keepIdleConnections(s))));
  });
  return { url: urlOf(server, path), close: () => closeServer(server) };
}

/** An Express app with the skills router at `/mcp`, listening; `close()` closes the router, then the server. */
export async function listenExpressSkills(app: Express, skills: SkillsRouter): Promise<Listening> {
  app.use('/mcp', skills);
  const http = await listenExpress(app);
  return {
    url: http.url,
    close: async () => {
      await skills.close();
      await http.close();
    },
  };
}

/** A Fastify app, listening; `close()` is `app.close()`, so its onClose hooks run. */
export async function listenFastify(app: FastifyInstance, path = '/mcp'): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: urlOf(app.server, path), close: () => app.close() };
}

/** A node:http handler, listening; a handler that throws answers 500 (or ends a started answer). */
export async function listenHttp(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void, path = '/mcp'): Promise<Listening> {
  const server = keepIdleConnections(
    createServer((req, res) => {
      Promise.resolve(handler(req, res)).catch((error) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.end();
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: urlOf(server, path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
