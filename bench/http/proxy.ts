/**
 * A small round-robin HTTP proxy on 127.0.0.1, for the replicas case: each request goes to the
 * next upstream in turn over a keep-alive agent of that upstream; the body streams both ways. The
 * upstreams can be changed between measurements (1, 2, then 3 replicas behind the same address).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Send the next requests to these MCP endpoint URLs, in turn. */
  route(upstreams: readonly string[]): void;
  close(): Promise<void>;
}

/** Headers about one connection, which a proxy must not pass on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

const forwarded = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

export async function startProxy(path = '/mcp'): Promise<RoundRobinProxy> {
  const agents = new Map<string, http.Agent>();
  let targets: URL[] = [];
  let next = 0;
  const server = http.createServer(async (req, res) => {
    if (targets.length === 0) {
      res.writeHead(503).end('bench proxy: no upstream');
      return;
    }
    const target = targets[next++ % targets.length]!;
    const agent = agents.get(target.host) ?? new http.Agent({ keepAlive: true, maxSockets: 64 });
    agents.set(target.host, agent);
    // Bodies are small JSON-RPC messages: held whole, so a request can be sent again (below).
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const send = (retry: boolean) => {
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: req.method,
          agent,
          headers: { ...forwarded(req.headers), host: target.host },
        },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, forwarded(reply.headers));
          reply.pipe(res);
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // An idle keep-alive connection the replica closed just as it was reused: nothing reached
        // the replica, so the request is sent once more on a new connection.
        if (retry && upstream.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send(false);
        if (!res.headersSent) res.writeHead(502);
        res.end(`bench proxy: ${target.href}: ${error.message}`);
      });
      upstream.end(body);
    };
    send(true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    route(upstreams) {
      targets = upstreams.map((u) => new URL(u));
      next = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const agent of agents.values()) agent.destroy();
    },
  };
}
