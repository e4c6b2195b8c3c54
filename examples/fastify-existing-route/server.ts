// A Fastify app with its own stateless MCP route (SDK v1, its own tool) that serves skills on that same route.
// Run: pnpm start, then point an MCP client at the URL it prints.
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import skillsPlugin from '@skillmount/fastify';
import { fsStorage } from '@skillmount/storage-fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
// The skills folder beside this example (any folder of <skill>/SKILL.md works).
const skillsDir = process.env.SKILLS_DIR ?? fileURLToPath(new URL('../skills', import.meta.url));

/** The app's own MCP server: one per request, as the route was before skills came along. */
function buildServer(): McpServer {
  const server = new McpServer({ name: 'calculator', version: '1.0.0' });
  server.registerTool('add', { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return server;
}

// Fastify sets no request timeout by default; a slow client could hold a connection for ever.
const app = Fastify({ logger: { level: 'warn' }, requestTimeout: 30_000 });

// path: false mounts no route of the plugin's own: the skills go onto the route below.
await app.register(skillsPlugin, { storage: fsStorage(skillsDir), path: false, server: buildServer });

app.post('/mcp', async (request, reply) => {
  // Protocol 2026-07-28 requests (skills, and the add tool through the server option) are answered here.
  if (await app.skills.handleModern(request, reply)) return;
  const server = buildServer();
  app.skills.attach(server); // before connect()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
});

// Stateless: no event stream to open (GET), no session to end (DELETE). 405 tells clients so;
// a 404 here makes some of them give up on the endpoint.
const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
  reply
    .code(405)
    .header('allow', 'POST')
    .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless' }, id: null });
app.get('/mcp', methodNotAllowed);
app.delete('/mcp', methodNotAllowed);

const address = await app.listen({ port, host });
console.log(`listening on ${address}/mcp with the add tool and ${app.skills.entries.length} skills from ${skillsDir}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close());
}
