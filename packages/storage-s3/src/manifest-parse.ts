import { Worker } from 'node:worker_threads';
import { decodeEntries, type ManifestEntry } from './manifest-decode.js';
import type { ParseReply, ParseRequest } from './manifest-messages.js';

/** Manifests up to this size are decoded in place: a few milliseconds at most, less than starting a thread takes. */
export const IN_PLACE_BYTES = 1024 * 1024;

/** A manifest's entries, or the Error saying why its bytes are not a manifest this package reads. */
export type Decode = (bytes: Uint8Array) => Promise<Map<string, ManifestEntry>>;

export function decodeInPlace(bytes: Uint8Array, maxEntries: number): Map<string, ManifestEntry> {
  return new Map(decodeEntries(bytes, maxEntries));
}

/**
 * One parse at a time in the whole process, across storages and tenants: each holds up to
 * `maxManifestBytes` of body and a thread's heap, so many tenants planting manifests at once
 * queue instead of adding up.
 */
let running: Promise<void> = Promise.resolve();
function takeTurn(): Promise<() => void> {
  let release!: () => void;
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const before = running;
  running = before.then(() => turn);
  return before.then(() => release);
}

/** Set when a thread could not start here (a bundle without manifest-worker.js): later parses run in place. */
let unavailable = false;

/**
 * Wait for the process's parsing turn, then start a thread, so that it boots while the body is
 * read. `decode` hands it the bytes (moved, not copied) and collects the entries it sends back in
 * slices; the thread ends after one manifest, and with it everything it allocated. `release` ends
 * the turn (and the thread, when the body was never decoded).
 */
export async function parsingThread(maxEntries: number): Promise<{ decode: Decode; release(): void }> {
  const endTurn = await takeTurn();
  let worker: Worker | undefined;
  if (!unavailable) {
    try {
      // Plain compiled code: no loader hooks or flags of the host process.
      worker = new Worker(new URL('./manifest-worker.js', import.meta.url), { execArgv: [] });
    } catch {
      unavailable = true;
    }
  }
  let ended = false;
  const release = () => {
    if (ended) return;
    ended = true;
    void worker?.terminate();
    endTurn();
  };
  const decode: Decode = async (bytes) => {
    try {
      if (!worker) return decodeInPlace(bytes, maxEntries);
      return await collect(worker, bytes, maxEntries, () => decodeInPlace(bytes, maxEntries));
    } finally {
      release();
    }
  };
  return { decode, release };
}

function collect(worker: Worker, bytes: Uint8Array, maxEntries: number, inPlace: () => Map<string, ManifestEntry>): Promise<Map<string, ManifestEntry>> {
  // The thread takes the buffer: copy first when the bytes are a view into a larger one.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const buffer = whole ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  return new Promise((resolve, reject) => {
    const entries = new Map<string, ManifestEntry>();
    // The thread says it is ready once its module loaded: a failure before that means threads cannot start here.
    let started = false;
    worker.on('message', (reply: ParseReply) => {
      if ('ready' in reply) started = true;
      else if ('entries' in reply) for (const [path, entry] of reply.entries) entries.set(path, entry);
      else if ('done' in reply) resolve(entries);
      else reject(new Error(reply.problem));
    });
    const failed = (error: Error) => {
      if (started) return reject(new Error(`it could not be parsed: ${error.message}`));
      unavailable = true;
      try {
        resolve(inPlace());
      } catch (problem) {
        reject(problem);
      }
    };
    worker.once('error', failed);
    worker.once('exit', (code) => failed(new Error(`the parsing thread exited (code ${code})`)));
    worker.postMessage({ bytes: buffer, maxEntries } satisfies ParseRequest, [buffer]);
  });
}
