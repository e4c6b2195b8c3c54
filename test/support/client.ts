import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * An SDK v1 client connected over Streamable HTTP, with a raw `call` for the extension's methods.
 * `capabilities`: what it declares at initialize (e.g. the Skills extension under `extensions`).
 */
/**
 * Client capabilities declaring the Skills extension: such a client gets the app's instructions
 * alone (no listing at initialize), for tests whose counts and warnings are the skills methods' own.
 */
export const WITH_SKILLS_EXTENSION = { extensions: { 'io.modelcontextprotocol/skills': {} } };

export async function connectClient(url: string, headers: Record<string, string> = {}, capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: 'skillmount-tests', version: '0.0.0' }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const call = (method: string, params?: unknown) => client.request({ method, params } as never, ResultSchema) as Promise<Record<string, any>>;
  return { client, call, close: () => client.close() };
}

/** The JSON-RPC error code a call fails with; fails the test when it succeeds. */
export async function errorCode(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: number }).code;
  }
  throw new Error('expected the call to fail');
}
