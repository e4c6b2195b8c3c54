import { Worker } from 'node:worker_threads';
import type { ManifestEntry } from './manifest-decode.js';
import type { ParseReply, ParseRequest } from './manifest-messages.js';

/** One manifest-parsing thread, listened to from its start. */
export interface ManifestThread {
  /**
   * The entries of `bytes`, collected from the slices the thread sends back. The bytes are moved
   * to it (not copied) once it has loaded its module; `inPlace` decodes them here instead when it
   * could not load it.
   */
  decode(bytes: Uint8Array, maxEntries: number, inPlace: () => Map<string, ManifestEntry>): Promise<Map<string, ManifestEntry>>;
  /** End the thread; settles once it has exited, and with it everything it held. */
  stop(): Promise<void>;
}

/** Set when a thread could not start here (a bundle without manifest-worker.js): later parses run in place. */
let unavailable = false;

/**
 * How long a manifest's bytes wait for their thread to say it has loaded its module (it boots
 * while the body is read, in well under a second). One that takes longer is stuck, say a
 * manifest-worker.js that is some other program: the manifest is parsed in place instead.
 */
const START_BOUND_MS = 10_000;

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
  /** Why the thread ended before its answer. */
  let ended: Error | undefined;
  let started!: (loaded: boolean) => void;
  /** Whether the thread loaded its module: true once it says it is ready, false if it ended first. */
  const loaded = new Promise<boolean>((resolve) => {
    started = resolve;
  });
  let answer: ((outcome: ParseReply | Error) => void) | undefined;
  worker.on('message', (reply: ParseReply) => {
    if ('ready' in reply) {
      ready = true;
      started(true);
    } else answer?.(reply);
  });
  const end = (error: Error) => {
    if (stopping || ended) return;
    ended = error;
    // Ending before it said it was ready means its module cannot load here: it never will.
    if (!ready) unavailable = true;
    started(false);
    answer?.(error);
  };
  worker.on('error', end);
  worker.on('exit', (code) => end(new Error(`the parsing thread exited (code ${code})`)));

  const decode: ManifestThread['decode'] = async (bytes, maxEntries, inPlace) => {
    // Moved only to a thread that loaded its module: the bytes must still be here to parse in place.
    if (!(await within(loaded, START_BOUND_MS))) return inPlace();
    return new Promise((resolve, reject) => {
      const entries = new Map<string, ManifestEntry>();
      answer = (outcome) => {
        if (outcome instanceof Error) reject(new Error(`it could not be parsed: ${outcome.message}`));
        else if ('entries' in outcome) for (const [path, entry] of outcome.entries) entries.set(path, entry);
        else if ('done' in outcome) resolve(entries);
        else if ('problem' in outcome) reject(new Error(outcome.problem));
      };
      if (ended) return answer(ended);
      // The thread takes the buffer: copy first when the bytes are a view into a larger one.
      const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      const buffer = whole ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
      worker.postMessage({ bytes: buffer, maxEntries } satisfies ParseRequest, [buffer]);
    });
  };

  const stop = async () => {
    stopping = true;
    await worker.terminate();
  };
  return { decode, stop };
}

/** What `promise` settles to, or false once `ms` have passed first. */
async function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
