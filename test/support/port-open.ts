/** Whether a port accepts connections: how a test sees that a server it stopped let go of its port. */
import { connect } from 'node:net';

/** True while something accepts connections at the URL's port. */
export function listening(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
