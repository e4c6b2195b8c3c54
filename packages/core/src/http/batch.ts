import type { IncomingMessage } from 'node:http';
import type { HttpRefusal } from './types.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

/** Most messages in one JSON-RPC batch. Each may be a read of a large file; clients rarely batch more than a few. */
export const MAX_BATCH = 32;
/** The one protocol version whose Streamable HTTP takes batches: 2025-06-18 removed them. */
const BATCHING_VERSION = '2025-03-26';
const INVALID_REQUEST = JsonRpcErrorCode.InvalidRequest;

/**
 * The answer to a JSON-RPC batch this endpoint will not run, or undefined for a single message
 * and an acceptable batch. The protocol version is the `MCP-Protocol-Version` header (absent means
 * 2025-03-26, as the spec says), or the version an `initialize` inside the batch asks for.
 */
export function batchRefusal(body: unknown, req: IncomingMessage): HttpRefusal | undefined {
  if (!Array.isArray(body)) return undefined;
  if (body.length === 0) {
    return { status: 400, code: INVALID_REQUEST, message: 'Invalid Request: the batch is empty; send a JSON-RPC message or a non-empty array of them' };
  }
  const version = requestedVersion(body) ?? headerVersion(req) ?? BATCHING_VERSION;
  // Versions are dates, so text order is time order; anything after 2025-03-26 has no batches.
  if (version > BATCHING_VERSION) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message:
        `Invalid Request: protocol version ${JSON.stringify(version.slice(0, 40))} has no JSON-RPC batches (MCP removed them after ${BATCHING_VERSION}); ` +
        `send one message per request`,
    };
  }
  if (body.length > MAX_BATCH) {
    return {
      status: 400,
      code: INVALID_REQUEST,
      message: `Invalid Request: the batch holds ${body.length} messages, over the ${MAX_BATCH} this endpoint takes in one request; split it`,
    };
  }
  return undefined;
}

function headerVersion(req: IncomingMessage): string | undefined {
  const header = req.headers['mcp-protocol-version'];
  return typeof header === 'string' ? header.trim() : undefined;
}

function requestedVersion(batch: unknown[]): string | undefined {
  for (const message of batch) {
    const m = message as { method?: unknown; params?: { protocolVersion?: unknown } } | null;
    if (m?.method === 'initialize' && typeof m.params?.protocolVersion === 'string') return m.params.protocolVersion;
  }
  return undefined;
}
