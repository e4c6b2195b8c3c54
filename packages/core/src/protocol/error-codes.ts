/**
 * The JSON-RPC error codes skillmount sends, by name: the one place they are written as numbers
 * (test/packaging/error-codes.test.ts keeps it so). Exported from `@skillmount/core`,
 * `@skillmount/core/client` and `@skillmount/core/adapter`.
 */
export const JsonRpcErrorCode = Object.freeze({
  /** The body is not JSON. */
  ParseError: -32700,
  /** Not a request the endpoint takes: a refused batch, a broken 2026-07-28 envelope. */
  InvalidRequest: -32600,
  /** No such method (on 2026-07-28: one this protocol version does not serve). */
  MethodNotFound: -32601,
  /** Params of the wrong shape, and every unknown or hidden skill, file or folder (with `data: { uri }`). */
  InvalidParams: -32602,
  /** The server failed; the client is told no more than that, and `onWarning` hears the cause. */
  InternalError: -32603,
  /** A refusal outside any method: the HTTP method or media type, a busy or closed endpoint, a missing session header. */
  ServerError: -32000,
  /** A session id the endpoint does not know (HTTP 404): start a new session. */
  SessionNotFound: -32001,
  /** 2026-07-28: a request header disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the client did not declare a capability the method needs. */
  MissingClientCapability: -32021,
  /** 2026-07-28: a protocol version the server does not speak. */
  UnsupportedProtocolVersion: -32022,
} as const);
