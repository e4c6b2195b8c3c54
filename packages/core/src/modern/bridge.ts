/**
 * The app's own SDK v1 handlers (tools, prompts, resources, completions) answering 2026-07-28
 * requests in process. Each request gets a server from the app's factory, connected to a
 * transport that lives for that one request: a synthetic 2025-11-25 `initialize` carries the
 * request's client capabilities and client info, then the request itself goes in. Only public SDK
 * API is used (`connect` and the `Transport` interface).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcError } from './reply.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';
import { markInProcess } from '../server/in-process.js';

/** The app server's identity, as its `initialize` answer gives it. */
export interface ServerIdentity {
  serverInfo: { name: string; version: string; [key: string]: unknown };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

export interface BridgeCall {
  method: string;
  params: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Passed to the app's handlers as `extra.authInfo` and `extra.requestInfo`. */
  transportInfo: MessageExtraInfo;
  /** Progress and (filtered) log notifications the handler sends while it runs. */
  onNotification(message: { method: string; params?: unknown }): void;
  /** Aborted when the client goes away: the handler's `extra.signal` aborts with it. */
  signal: AbortSignal;
}

export type BridgeOutcome = { result: Record<string, unknown> } | { error: JsonRpcError };

const INIT_ID = 'skillmount-initialize';
const CALL_ID = 'skillmount-request';
/** Stands in for clientInfo when a modern request carries none (it is optional in 2026-07-28). */
const ANONYMOUS_CLIENT = { name: 'unnamed-2026-07-28-client', version: '0.0.0' };

/** Server-to-client requests have no channel in 2026-07-28 (their replacement is MRTR). */
const NO_CLIENT_REQUESTS: JsonRpcError = {
  code: JsonRpcErrorCode.MethodNotFound,
  message:
    'Not available on protocol 2026-07-28: requests from the server to the client (sampling, elicitation, roots, ping) have no channel there; ' +
    'the server can serve these through a 2025-11-25 session',
};

/** A transport that carries one request into the server and hands back what comes out. */
class RequestTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #answers = new Map<string, (message: JSONRPCMessage) => void>();
  readonly #closers = new Set<() => void>();

  private readonly onNotification: (message: { method: string; params?: unknown }) => void;

  constructor(onNotification: (message: { method: string; params?: unknown }) => void) {
    this.onNotification = onNotification;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof m.method === 'string' && m.id !== undefined) {
      // A request from the server (elicitation, sampling, roots): refuse it at once, so it never hangs.
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: m.id as string, error: NO_CLIENT_REQUESTS } as JSONRPCMessage));
      return;
    }
    if (typeof m.method === 'string') {
      this.onNotification({ method: m.method, params: m.params });
      return;
    }
    const answer = typeof m.id === 'string' ? this.#answers.get(m.id) : undefined;
    if (answer) {
      this.#answers.delete(m.id as string);
      answer(message);
    }
  }

  /** Deliver `message` and wait for the answer with its id (undefined if the transport closes first). */
  exchange(message: JSONRPCMessage & { id: string }, extra: MessageExtraInfo): Promise<JSONRPCMessage | undefined> {
    return new Promise((resolve) => {
      this.#answers.set(message.id, resolve);
      this.#closers.add(() => resolve(undefined));
      this.onmessage?.(message, extra);
    });
  }

  deliver(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async close(): Promise<void> {
    for (const close of this.#closers) close();
    this.#closers.clear();
    this.#answers.clear();
    this.onclose?.();
  }
}

type AnyServer = McpServer | Server;

/**
 * Calls into servers built by `buildServer`; remembers the identity of the first one (the app's
 * factory is expected to give the same name, version and capabilities every time).
 */
export class AppBridge {
  #identity: ServerIdentity | undefined;

  private readonly buildServer: () => Promise<AnyServer>;
  private readonly beforeConnect: (server: AnyServer, transport: Transport) => void;

  constructor(buildServer: () => Promise<AnyServer>, beforeConnect: (server: AnyServer, transport: Transport) => void = () => undefined) {
    this.buildServer = buildServer;
    this.beforeConnect = beforeConnect;
  }

  /** The app server's name, version, capabilities and instructions, read once from a handshake. */
  async identity(): Promise<ServerIdentity> {
    if (this.#identity) return this.#identity;
    await this.#session(
      { clientCapabilities: {}, transportInfo: {}, onNotification: () => undefined, signal: new AbortController().signal },
      undefined,
      async () => undefined,
    );
    return this.#identity!;
  }

  /** Answer one request with the app's handlers: on `server` when one was built for it already, else on a new one. */
  async call(call: BridgeCall, server?: AnyServer): Promise<BridgeOutcome> {
    return this.#session(call, server, async (transport) => {
      const answer = await transport.exchange(
        { jsonrpc: '2.0', id: CALL_ID, method: call.method, params: call.params } as JSONRPCMessage & { id: string },
        call.transportInfo,
      );
      if (!answer)
        return { error: { code: JsonRpcErrorCode.InternalError, message: `Internal error: ${call.method.slice(0, 100)} was cancelled before it completed` } };
      if ('error' in answer) return { error: answer.error as JsonRpcError };
      return { result: (answer as { result: Record<string, unknown> }).result };
    });
  }

  async #session<T>(call: Omit<BridgeCall, 'method' | 'params'>, built: AnyServer | undefined, work: (transport: RequestTransport) => Promise<T>): Promise<T> {
    const server = built ?? (await this.buildServer());
    const transport = new RequestTransport(call.onNotification);
    // Its initialize is not a client's: the app's instructions come back as they are.
    markInProcess(transport);
    const abort = () => void transport.close();
    try {
      this.beforeConnect(server, transport);
      await (server as { connect(t: Transport): Promise<void> }).connect(transport);
      const initialized = await transport.exchange(
        {
          jsonrpc: '2.0',
          id: INIT_ID,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: call.clientCapabilities, clientInfo: call.clientInfo ?? ANONYMOUS_CLIENT },
        } as JSONRPCMessage & { id: string },
        call.transportInfo,
      );
      if (!initialized || !('result' in initialized)) {
        const why = initialized && 'error' in initialized ? (initialized.error as { message?: string }).message : 'no answer';
        throw new Error(`the app's server refused the in-process initialize: ${why}`);
      }
      this.#identity ??= identityOf(initialized.result as Record<string, unknown>);
      transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage, call.transportInfo);
      if (call.signal.aborted) abort();
      call.signal.addEventListener('abort', abort, { once: true });
      return await work(transport);
    } finally {
      call.signal.removeEventListener('abort', abort);
      await (server as { close(): Promise<void> }).close().catch(() => undefined);
    }
  }
}

function identityOf(result: Record<string, unknown>): ServerIdentity {
  const info = (result.serverInfo ?? {}) as ServerIdentity['serverInfo'];
  const capabilities = { ...((result.capabilities ?? {}) as Record<string, unknown>) };
  // The modern path answers no resources/subscribe and no logging/setLevel (2026-07-28 dropped them).
  if (typeof capabilities.resources === 'object' && capabilities.resources !== null) {
    const { subscribe: _dropped, ...resources } = capabilities.resources as Record<string, unknown>;
    capabilities.resources = resources;
  }
  return {
    serverInfo: {
      name: String(info.name ?? 'skillmount'),
      version: String(info.version ?? '0.0.0'),
      ...(typeof info.title === 'string' ? { title: info.title } : {}),
    },
    capabilities,
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
}
