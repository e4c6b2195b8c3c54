/**
 * Transports that carry a request inside the process (the 2026-07-28 path's handshake with the
 * app's server), as opposed to a client's: what a client is told at initialize (the skills in its
 * instructions) is worked out only for a client's own handshake.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

const inProcess = new WeakSet<Transport>();

export function markInProcess(transport: Transport): void {
  inProcess.add(transport);
}

export function isInProcess(transport: Transport | undefined): boolean {
  return transport !== undefined && inProcess.has(transport);
}
