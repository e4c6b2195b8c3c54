/**
 * What the cross-origin page runs: the SDK's client and Streamable HTTP transport with
 * `@skillmount/core/client`, and the SDK v2 client on protocol 2026-07-28, bundled for the browser, against an MCP endpoint on another origin
 * behind a bearer token. Every step reports what the page could see, so a CORS header that is
 * missing shows up as a value the page could not read, or a fetch the browser refused.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { SkillsClient as ModernSkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SkillsClient } from '@skillmount/core/client';

export interface CorsReport {
  origin: string;
  /** The 401 without a token: its status and the WWW-Authenticate the page could read (null when not exposed). */
  unauthorized: { status: number; wwwAuthenticate: string | null } | { failed: string };
  /** With the token: the session id the transport read, the skills listed and the files verified. */
  session: { sessionId: string | undefined; skills: string[]; verified: string[]; unverified: string[]; terminated: boolean } | { failed: string };
  /**
   * The official SDK v2 client pinned to protocol 2026-07-28, with the token: its requests carry
   * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`, which the preflight must allow.
   */
  modern: { version: string | undefined; skills: string[]; verified: string[]; unverified: string[] } | { failed: string };
}

declare const location: { readonly origin: string };

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cors-page', version: '1' } },
});

async function unauthorized(endpoint: string): Promise<CorsReport['unauthorized']> {
  try {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    return { status: answer.status, wwwAuthenticate: answer.headers.get('www-authenticate') };
  } catch (error) {
    return { failed: String(error) };
  }
}

async function session(endpoint: string, token: string): Promise<CorsReport['session']> {
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'cors-page', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    return { failed: String(error) };
  }
  try {
    const sessionId = transport.sessionId;
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    const verified: string[] = [];
    const unverified: string[] = [];
    for (const entry of entries) {
      for (const resource of entry.resources as { uri: string }[]) {
        const file = await skills.read(entry, resource.uri);
        (file.verified ? verified : unverified).push(file.uri);
      }
    }
    // DELETE ends the session: a method the preflight must allow, with the session header.
    await transport.terminateSession();
    return { sessionId, skills: entries.map((e) => e.uri), verified, unverified, terminated: transport.sessionId === undefined };
  } catch (error) {
    return { failed: String(error) };
  } finally {
    await client.close();
  }
}

async function modern(endpoint: string, token: string): Promise<CorsReport['modern']> {
  const client = new ModernClient({ name: 'cors-page', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } as never } });
  try {
    await client.connect(new ModernTransport(new URL(endpoint), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const skills = new ModernSkillsClient(client);
    const listing = await skills.list();
    const verified: string[] = [];
    const unverified: string[] = [];
    for (const skill of listing.skills) {
      const root = skill.uri.slice(0, -'/SKILL.md'.length);
      for (const { uri } of skill.resources as { uri: string }[]) {
        const file = await skills.read(skill, uri.slice(root.length + 1));
        (file.verified ? verified : unverified).push(file.uri);
      }
    }
    return { version: client.getNegotiatedProtocolVersion(), skills: listing.skills.map((s) => s.uri), verified, unverified };
  } catch (error) {
    return { failed: String(error) };
  } finally {
    await client.close();
  }
}

async function corsRun(endpoint: string, token: string): Promise<CorsReport> {
  return {
    origin: location.origin,
    unauthorized: await unauthorized(endpoint),
    session: await session(endpoint, token),
    modern: await modern(endpoint, token),
  };
}

(globalThis as { corsRun?: typeof corsRun }).corsRun = corsRun;
