/** Entry point of a manifest-parsing thread: decodes one manifest's bytes and sends its entries back in slices. */
import { parentPort } from 'node:worker_threads';
import { decodeEntries } from './manifest-decode.js';
import { SLICE, type ParseReply, type ParseRequest } from './manifest-messages.js';

const port = parentPort!;
port.postMessage({ ready: true } satisfies ParseReply);
port.once('message', ({ bytes, maxEntries }: ParseRequest) => {
  const reply = (message: ParseReply) => port.postMessage(message);
  let entries: ReturnType<typeof decodeEntries>;
  try {
    entries = decodeEntries(new Uint8Array(bytes), maxEntries);
  } catch (error) {
    reply({ problem: (error as Error).message });
    return;
  }
  // Slices, each its own message: the serving thread takes one between its other tasks, never all at once.
  for (let i = 0; i < entries.length; i += SLICE) reply({ entries: entries.slice(i, i + SLICE) });
  reply({ done: entries.length });
});
