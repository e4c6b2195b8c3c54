/** Entry point of a listing worker thread: runs the jobs of `jobs.ts` as the pool sends them. */
import { parentPort } from 'node:worker_threads';
import { checkFolders, checksOf, verifyFolders } from './check.js';
import { readFiles, walkFolders, type Listed } from './jobs.js';
import { treeError, type Reply, type Request } from './messages.js';

const port = parentPort!;
port.on('message', (request: Request) => {
  const reply = (message: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  try {
    if (request.type === 'folders') {
      const walked = walkFolders(request.root, request.folders, request.read, request.line);
      reply({ id: request.id, walked }, transferables(walked.flatMap((w) => w.items)));
    } else if (request.type === 'check') {
      // Folders listed afresh here are listed without reading: nothing to transfer.
      reply({ id: request.id, checked: checkFolders(request.root, checksOf(request.records), request.line) });
    } else if (request.type === 'verify') {
      reply({ id: request.id, same: verifyFolders(request.root, checksOf(request.records)) });
    } else {
      const items = readFiles(request.root, request.files, request.line);
      reply({ id: request.id, items }, transferables(items));
    }
  } catch (error) {
    reply({ id: request.id, error: treeError(error) });
  }
});

/**
 * File contents move to the listing thread in one buffer a reply, each item's content a view into
 * it: moving a buffer has a fixed cost on both sides, and thousands of small ones (a SKILL.md
 * each) also make the receiving thread collect garbage far more often.
 */
function transferables(items: readonly Listed[]): ArrayBuffer[] {
  let total = 0;
  for (const item of items) if (item.content) total += item.content.byteLength;
  if (total === 0) return [];
  const packed = new Uint8Array(total);
  let offset = 0;
  for (const item of items) {
    if (!item.content) continue;
    packed.set(item.content, offset);
    item.content = packed.subarray(offset, offset + item.content.byteLength);
    offset += item.content.byteLength;
  }
  return [packed.buffer];
}
