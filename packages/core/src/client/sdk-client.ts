import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * What the host side reads from an SDK `Client` beyond its public methods. SDK v1 keeps its
 * options in `_options` (the SDK v2 in `_enforceStrictCapabilities`) and exposes the negotiated
 * revision only on newer releases; each reader falls back to the SDK's own default when absent.
 */
export function enforcesStrictCapabilities(client: Client): boolean {
  const internals = client as unknown as { _options?: { enforceStrictCapabilities?: unknown }; _enforceStrictCapabilities?: unknown };
  return internals._options?.enforceStrictCapabilities === true || internals._enforceStrictCapabilities === true;
}

/** The protocol revision the client negotiated, where the SDK tells it. */
export function negotiatedProtocolVersion(client: Client): string | undefined {
  const internals = client as unknown as { getNegotiatedProtocolVersion?: () => string | undefined };
  const negotiated = typeof internals.getNegotiatedProtocolVersion === 'function' ? internals.getNegotiatedProtocolVersion() : undefined;
  return negotiated ?? (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion;
}
