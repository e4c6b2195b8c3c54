/** The stateless SDK v1 route an app writes itself: one server and one transport per request. */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

interface Connectable {
  connect(transport: StreamableHTTPServerTransport): Promise<void>;
  close(): Promise<void>;
}

/** Connect `server` to a fresh stateless transport; both close when `response` does. */
export async function statelessTransport(
  server: Connectable,
  response: { on(event: 'close', listener: () => void): unknown },
): Promise<StreamableHTTPServerTransport> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  return transport;
}
