import type { Request } from 'express';

/**
 * The body a parser already read, else undefined so the SDK transport reads the stream itself
 * (with JSON-RPC errors). The stream having ended tells the two apart: body-parser 1.x (Express 4)
 * sets `req.body = {}` even for requests it did not read.
 */
export function parsedBody(req: Request): unknown {
  return req.readableEnded ? req.body : undefined;
}
