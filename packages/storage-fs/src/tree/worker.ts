/** Entry point of a listing worker thread: runs the jobs of `jobs.ts` as the pool sends them. */
import { parentPort } from 'node:worker_threads';
import { readFiles, walkFolders, type Listed } from './jobs.js';
import { treeError, type Reply, type Request } from './messages.js';

const port = parentPort!;
port.on('message', (request: Request) => {
  const reply = (message: Reply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  try {
    if (request.type === 'folders') {
      const walked = walkFolders(request.root, request.folders, request.read);
      reply({ id: request.id, walked }, transferables(walked.flatMap((w) => w.items)));
    } else {
      const items = readFiles(request.root, request.files);
      reply({ id: request.id, items }, transferables(items));
    }
  } catch (error) {
    reply({ id: request.id, error: treeError(error) });
  }
});

/** File contents move to the listing thread instead of being copied. */
function transferables(items: readonly Listed[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const item of items) if (item.content) buffers.push(item.content.buffer as ArrayBuffer);
  return buffers;
}
