/**
 * One loopback origin for the browser page and the MCP endpoint: the page and its bundle are
 * served here, and `/mcp` is passed through to a running `skillmount serve`, started without
 * `--cors`. A page on another origin, through a CORS layer, is cors.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function sameOriginProxy(target: URL, page: { html: string; bundle: string }): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    if (req.method === 'GET' && req.url === '/bundle.js') return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(page.bundle);
    if (req.url !== target.pathname) return void res.writeHead(404).end();
    const headers = { ...req.headers, host: target.host };
    const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.headersSent || res.writeHead(502).end());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
