/**
 * What a CORS layer in front of the endpoint must allow for a browser MCP client, in the option
 * names both `@fastify/cors` and the `cors` middleware take, so an app spreads it instead of
 * copying header lists: `cors({ origin: ['https://app.example.com'], ...MCP_CORS_OPTIONS })`.
 */
export interface McpCorsOptions {
  /** `POST` for messages, `GET` for a session's stream, `DELETE` to end a session. */
  readonly methods: string[];
  /**
   * Request headers MCP clients send: `Content-Type`, `Authorization` (a bearer token),
   * `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID` (resuming a stream), and on protocol
   * 2026-07-28 `Mcp-Method` and `Mcp-Name`. An app whose tools declare `x-mcp-header` arguments
   * adds their `Mcp-Param-<Name>` headers.
   */
  readonly allowedHeaders: string[];
  /**
   * Response headers a page must be able to read: `Mcp-Session-Id` (a session client cannot send
   * its next request without it) and `WWW-Authenticate` (an OAuth client finds the authorization
   * server through it on a 401).
   */
  readonly exposedHeaders: string[];
}

// Frozen, typed mutable because both libraries' option types take string[].
const frozen = (...names: string[]) => Object.freeze(names) as string[];

/** The methods and headers MCP's Streamable HTTP needs from a CORS layer; see `McpCorsOptions`. */
export const MCP_CORS_OPTIONS: McpCorsOptions = Object.freeze({
  methods: frozen('GET', 'POST', 'DELETE'),
  allowedHeaders: frozen('Content-Type', 'Authorization', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name'),
  exposedHeaders: frozen('Mcp-Session-Id', 'WWW-Authenticate'),
});
