import type { ServerResponse } from 'node:http';

/** Longest the headers of a POST's answer wait for its first bytes. */
const HOLD_MS = 10;

/**
 * The SDK's transport flushes the headers of an event-stream answer on their own as soon as it
 * has the stream, then writes the answer when the handler has it: two writes to the socket (two
 * system calls) where one would do, for every request whose handler waits on storage. Hold the
 * headers until the first bytes of the answer, so they leave together, or at most `HOLD_MS`, so
 * the client of a long-running request still learns soon that its stream is open. The bytes on
 * the wire are the same.
 */
export function holdHeaders(res: ServerResponse): void {
  const flush = res.flushHeaders;
  let held = false;
  res.flushHeaders = () => {
    if (held || res.headersSent) return;
    held = true;
    setTimeout(() => {
      if (!res.headersSent && !res.writableEnded && !res.destroyed) flush.call(res);
    }, HOLD_MS).unref();
  };
}
