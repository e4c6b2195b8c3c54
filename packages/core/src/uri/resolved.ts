import { parseUri } from './canonical.js';

/**
 * Whether `uri` is a well-formed hierarchical URI that the WHATWG URL parser leaves exactly as
 * spelled. McpServer passes a `resources/read` URI through that parser before its resource
 * template sees it: it refuses one that does not parse, and resolves dot segments or drops an
 * empty userinfo (`skill://@a/…`) first. Only a URI for which this is true reaches the skills as
 * the client wrote it, so only such a read may be answered from the source without the server.
 */
export function resolvesToItself(uri: string): boolean {
  if (!parseUri(uri).ok) return false;
  try {
    return new URL(uri).href === uri;
  } catch {
    return false;
  }
}
