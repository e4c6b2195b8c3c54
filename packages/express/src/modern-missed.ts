import type { IncomingMessage } from 'node:http';
import { escapeControls, isModernRequest, type SkillWarning } from '@skillmount/core';

/** What `attach` is given: an `McpServer` or a low-level `Server`, both with `connect(transport)`. */
interface Connectable {
  connect(transport: never): Promise<void>;
}

type HandleRequest = (req: IncomingMessage, res: unknown, body?: unknown) => Promise<void>;

/**
 * On the app's own route, `skills.handleModern` answers every protocol 2026-07-28 request and
 * passes none on, so one that reaches the SDK transport of a server the skills were attached to
 * skipped it: the SDK v1 transport refuses it with 400 and the client reports "Version negotiation
 * failed", nothing more. Express has no hook around the app's route, so this watches the
 * transport each attached server is connected to (a stateless route's, or a session's) and warns
 * once. Returns the function to call on each attached server.
 */
export function watchForMissedModern(warn: (warning: SkillWarning) => void): (server: Connectable) => void {
  let warned = false;
  const watched = new WeakSet<object>();
  const check = (req: IncomingMessage, body: unknown) => {
    if (warned || !isModernRequest(req, body)) return;
    warned = true;
    warn(missedWarning(req, body));
  };
  const watchTransport = (transport: { handleRequest?: unknown }) => {
    if (typeof transport?.handleRequest !== 'function' || watched.has(transport)) return;
    watched.add(transport);
    const handle = transport.handleRequest as HandleRequest;
    transport.handleRequest = function (this: unknown, req: IncomingMessage, res: unknown, body?: unknown) {
      check(req, body);
      return handle.call(this, req, res, body);
    } satisfies HandleRequest;
  };
  return (server) => {
    if (watched.has(server)) return;
    watched.add(server);
    const connect = server.connect;
    try {
      server.connect = async function (this: unknown, transport: never) {
        watchTransport(transport);
        return connect.call(this, transport);
      };
    } catch {
      // A frozen server: no warning, nothing else changes.
    }
  };
}

/** Express's whole URL (a router's req.url lacks its mount path); the path alone, since a query may hold secrets. */
const urlOf = (req: IncomingMessage) => ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0];

function missedWarning(req: IncomingMessage, body: unknown): SkillWarning {
  const method = (body as { method?: unknown } | undefined)?.method;
  // The method name is the client's: escaped before it reaches a log line.
  const what = typeof method === 'string' ? ` (${escapeControls(method.slice(0, 100))})` : '';
  return {
    code: 'modern-not-handled',
    message:
      `@skillmount/express: a protocol 2026-07-28 request${what} reached the SDK transport of your own MCP route ${req.method} ${urlOf(req)} ` +
      'without skills.handleModern, and that transport refuses it (HTTP 400), so 2026-07-28 clients fail with "Version negotiation failed". ' +
      'Make this the first line of the route: if (await skills.handleModern(req, res)) return; ' +
      '(give the router your server factory as the "server" option so that your own tools answer there too). Reported once.',
  };
}
