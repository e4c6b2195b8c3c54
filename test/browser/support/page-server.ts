/** A page and its bundle served from an origin of their own (`http://localhost:<port>`), and nothing else. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function servePage(page: { html: string; bundle: string }): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
    if (req.method === 'GET' && req.url === '/bundle.js') return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(page.bundle);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // localhost, not 127.0.0.1: another site name than the endpoint's, so the page is cross-origin for certain.
    origin: `http://localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
