/**
 * Proof that a server started with `EVERY_SURFACE` has each surface on, so a peer's unchanged
 * verdict on it says something: the instructions name the skills, `read_skill`, `search_skills` and one prompt per
 * skill are listed, the installer's index answers and a CORS preflight from the allowed origin is granted.
 */
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function assertEverySurfaceOn(url: string, skills: number): Promise<void> {
  const client = new Client({ name: 'every-surface-check', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const named = client.getInstructions()?.match(/skill:\/\/\S+\/SKILL\.md/g) ?? [];
    assert.equal(new Set(named).size, skills, `the instructions name every skill:\n${client.getInstructions()}`);
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(tools.includes('read_skill'), 'read_skill is listed');
    assert.ok(tools.includes('search_skills'), 'search_skills is listed');
    assert.equal((await client.listPrompts()).prompts.length, skills, 'one prompt per skill');
  } finally {
    await client.close();
  }
  const origin = new URL(url).origin;
  const index = await fetch(`${origin}/.well-known/agent-skills/index.json`);
  assert.equal(index.status, 200, 'the installer index answers');
  assert.equal(((await index.json()) as { skills: unknown[] }).skills.length, skills, 'the index lists every skill');
  const preflight = await fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,mcp-session-id' },
  });
  assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173', 'the CORS preflight is granted');
}
