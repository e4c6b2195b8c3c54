import { test } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { fsStorage } from '@skillmount/storage-fs';
import { skillsMiddleware } from '@skillmount/express';
import { EXAMPLES, checkSkillsEndpoint } from '../support/skills-suite.js';
import { connectClient } from '../support/client.js';
import { listenExpress } from '../support/apps.js';
import { statelessTransport } from '../support/stateless-route.js';

test("an app's existing MCP route adds skills with skills.attach(server)", async (t) => {
  const skills = skillsMiddleware({ storage: fsStorage(EXAMPLES), pageSize: 2 }); // not mounted
  await skills.ready;

  const app = express();
  app.use(express.json());
  app.post('/mcp', async (req, res) => {
    const server = new McpServer({ name: 'existing-app', version: '2.0.0' });
    server.registerTool('hello', { description: 'Says hello' }, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
    skills.attach(server); // the one added line
    const transport = await statelessTransport(server, res);
    await transport.handleRequest(req, res, req.body);
  });
  const http = await listenExpress(app);
  t.after(async () => {
    await skills.close();
    await http.close();
  });

  await checkSkillsEndpoint(http.url, { pageSize: 2 });
  const { client, close } = await connectClient(http.url);
  try {
    assert.equal(client.getServerVersion()?.name, 'existing-app');
    assert.deepEqual((await client.callTool({ name: 'hello' })).content, [{ type: 'text', text: 'hello' }]);
  } finally {
    await close();
  }
});
