import { decodeEntries, type ManifestEntry } from './manifest-decode.js';
import { startThread } from './manifest-thread.js';

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

/**
 * Wait for the process's parsing turn, then start a thread, so that it boots while the body is
 * read. `decode` hands it the bytes and collects the entries; the thread ends after one manifest,
 * and with it everything it allocated. `release` ends the thread (when the body was never
 * decoded) and then the turn.
 *
 * Both settle only once the thread has exited: the bytes moved to it stay the process's memory
 * (counted in its `arrayBuffers`) until then, so the next turn must not start, nor a reload end,
 * while a thread still holds a refused manifest. On a loaded machine a terminated thread can take
 * a while to exit.
 */
export async function parsingThread(maxEntries: number): Promise<{ decode: Decode; release(): Promise<void> }> {
  const endTurn = await takeTurn();
  const thread = startThread();
  let ended: Promise<void> | undefined;
  const release = () =>
    (ended ??= (async () => {
      try {
        await thread?.stop();
      } finally {
        endTurn();
      }
    })());
  const decode: Decode = async (bytes) => {
    const inPlace = () => decodeInPlace(bytes, maxEntries);
    try {
      return thread ? await thread.decode(bytes, maxEntries, inPlace) : inPlace();
    } finally {
      await release();
    }
  };
  return { decode, release };
}
