import { Worker } from 'node:worker_threads';
import type { ManifestEntry } from './manifest-decode.js';
import type { ParseReply, ParseRequest } from './manifest-messages.js';

/** One manifest-parsing thread, listened to from its start. */
export interface ManifestThread {
  /**
   * The entries of `bytes` (moved to the thread, not copied), collected from the slices it sends
   * back. `inPlace` decodes them here instead when the thread could not load its module.
   */
  decode(bytes: Uint8Array, maxEntries: number, inPlace: () => Map<string, ManifestEntry>): Promise<Map<string, ManifestEntry>>;
  /** End the thread; settles once it has exited, and with it everything it held. */
  stop(): Promise<void>;
}

/** Set when a thread could not start here (a bundle without manifest-worker.js): later parses run in place. */
let unavailable = false;

/**
 * Start a thread unless threads are known not to start here. Its events are listened to at once:
 * it boots while the manifest's body is still being read, and what it says meanwhile (that it is
 * ready, or that its module could not load) must neither be lost nor be an unhandled 'error'.
 */
export function startThread(): ManifestThread | undefined {
  if (unavailable) return undefined;
  let worker: Worker;
  try {
    // Plain compiled code: no loader hooks or flags of the host process.
    worker = new Worker(new URL('./manifest-worker.js', import.meta.url), { execArgv: [] });
  } catch {
    unavailable = true;
    return undefined;
  }
  let ready = false;
  let stopping = false;
  /** Why the thread ended before its answer; kept for a decode that has not begun yet. */
  let ended: Error | undefined;
  let waiting: { reply(reply: ParseReply): void; ended(error: Error): void } | undefined;
  worker.on('message', (reply: ParseReply) => {
    if ('ready' in reply) ready = true;
    else waiting?.reply(reply);
  });
  const end = (error: Error) => {
    if (stopping || ended) return;
    // Failing before it said it was ready means its module cannot load here: it never will.
    if (!ready) unavailable = true;
    ended = error;
    waiting?.ended(error);
  };
  worker.on('error', end);
  worker.on('exit', (code) => end(new Error(`the parsing thread exited (code ${code})`)));

  const decode: ManifestThread['decode'] = (bytes, maxEntries, inPlace) =>
    new Promise((resolve, reject) => {
      const fallBack = (error: Error) => {
        if (ready) return reject(new Error(`it could not be parsed: ${error.message}`));
        try {
          resolve(inPlace());
        } catch (problem) {
          reject(problem);
        }
      };
      if (ended) return fallBack(ended);
      const entries = new Map<string, ManifestEntry>();
      waiting = {
        reply(reply) {
          if ('entries' in reply) for (const [path, entry] of reply.entries) entries.set(path, entry);
          else if ('done' in reply) resolve(entries);
          else if ('problem' in reply) reject(new Error(reply.problem));
        },
        ended: fallBack,
      };
      // The thread takes the buffer: copy first when the bytes are a view into a larger one.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      const buffer = whole ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
      worker.postMessage({ bytes: buffer, maxEntries } satisfies ParseRequest, [buffer]);
    });

  const stop = async () => {
    stopping = true;
    await worker.terminate();
  };
  return { decode, stop };
}
