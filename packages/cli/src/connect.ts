import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SkillsClient, type SkillsClientOptions } from '@skillmount/core/client';
import { VERSION } from '@skillmount/core';
import { connectFailure } from './http-failure.js';
import { UsageError } from './usage.js';

/** Connect to a Streamable HTTP MCP endpoint and wrap the client for skills. */
export async function connectSkills(
  url: string,
  headers: Record<string, string>,
  options: SkillsClientOptions = {},
): Promise<{ skills: SkillsClient; close(): Promise<void> }> {
  let endpoint: URL;
  try {
    endpoint = new URL(url);
  } catch {
    throw new UsageError(`"${url}" is not a URL; give the MCP endpoint, e.g. http://127.0.0.1:3000/mcp`);
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new UsageError(`"${url}" is not an http(s) URL`);
  const client = new Client({ name: 'skillmount', version: VERSION });
  try {
    await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  } catch (error) {
    throw new Error(`cannot connect to ${url}: ${connectFailure(endpoint, error)}`, { cause: error });
  }
  return { skills: new SkillsClient(client, options), close: () => client.close() };
}

/** `--header "Name: value"` options as a header record. */
export function headerOptions(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values ?? []) {
    const colon = value.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header must look like "Name: value", got "${value}"`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}
