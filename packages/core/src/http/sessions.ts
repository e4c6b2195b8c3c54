import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { HttpRefusal } from './types.js';

export interface SessionLimits {
  /** Close a session with no request for this long. */
  idleMs: number;
  /** Sessions open at once, across all clients. */
  max: number;
  /** Sessions one client (see `sessionOwner`) may hold at once. */
  maxPerClient: number;
}

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer | Server;
  owner: string;
  lastSeen: number;
  /** Responses still open: requests in flight and the GET event stream. A session with none is idle. */
  open: number;
}

/** A slot held for a session being initialized, so a burst of initializes cannot overshoot the caps. */
export interface SessionSlot {
  /** The session was initialized: keep it under `id`. */
  fill(id: string, session: Omit<Session, 'owner' | 'lastSeen' | 'open'>): void;
  /** It was not (the initialize failed): give the slot back. Harmless after `fill`. */
  release(): void;
}

/**
 * Who a session belongs to, for the per-client cap: the authenticated client (`auth.clientId`,
 * as the app's auth middleware set it) when there is one, else the remote address. Never a
 * header the client chooses freely.
 */
export function sessionOwner(req: IncomingMessage & { auth?: unknown }): string {
  const clientId = (req.auth as { clientId?: unknown } | undefined)?.clientId;
  if (typeof clientId === 'string' && clientId !== '') return `client:${clientId}`;
  return `address:${req.socket?.remoteAddress ?? 'unknown'}`;
}

/**
 * The open MCP sessions of an endpoint. At a cap, a new session takes the place of the least
 * recently used *idle* one (no request in flight, no open event stream) — of the same client at
 * the per-client cap, of anyone at the global cap — so a burst of initialize requests from one
 * client churns only its own sessions and never locks others out. Only when every session in
 * the way is busy is the new one refused: 429 at the per-client cap, 503 at the global one.
 */
export class SessionTable {
  readonly #limits: SessionLimits;
  /** Least recently used first. */
  readonly #sessions = new Map<string, Session>();
  readonly #perOwner = new Map<string, number>();
  #pending = 0;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  /** The session, marked as just used. */
  get(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    session.lastSeen = Date.now();
    return session;
  }

  /** Count `res` as open on `session` until it closes. */
  track(session: Session, res: ServerResponse): void {
    session.open++;
    res.once('close', () => {
      session.open--;
      session.lastSeen = Date.now();
    });
  }

  /** Hold a slot for a new session of `owner`, evicting an idle session if a cap is reached; or the refusal. */
  reserve(owner: string): SessionSlot | HttpRefusal {
    const { max, maxPerClient } = this.#limits;
    if (this.#count(owner) >= maxPerClient && !this.#evictIdle(owner)) {
      return {
        status: 429,
        code: -32000,
        message: `Too many sessions: this client already has ${maxPerClient} sessions, all busy; close one (DELETE with its Mcp-Session-Id) or try again later`,
      };
    }
    if (this.#sessions.size + this.#pending >= max && !this.#evictIdle(undefined)) {
      return { status: 503, code: -32000, message: `Too many open sessions: all ${max} are busy; try again later` };
    }
    this.#pending++;
    this.#perOwner.set(owner, this.#count(owner) + 1);
    let held = true;
    const giveBack = () => {
      if (!held) return;
      held = false;
      this.#pending--;
    };
    return {
      fill: (id, parts) => {
        giveBack();
        this.#sessions.set(id, { ...parts, owner, lastSeen: Date.now(), open: 0 });
        this.#sweeper ??= setInterval(() => this.#sweep(), Math.min(this.#limits.idleMs, 60_000)).unref();
      },
      release: () => {
        if (!held) return;
        giveBack();
        this.#uncount(owner);
      },
    };
  }

  /** Forget a session (its transport closed). */
  delete(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#uncount(session.owner);
  }

  /** Close every session. */
  async closeAll(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#perOwner.clear();
    await Promise.allSettled(open.map((s) => s.transport.close()));
  }

  #count(owner: string): number {
    return this.#perOwner.get(owner) ?? 0;
  }

  #uncount(owner: string): void {
    const left = this.#count(owner) - 1;
    if (left > 0) this.#perOwner.set(owner, left);
    else this.#perOwner.delete(owner);
  }

  /** Close the least recently used idle session (of `owner`, when given); false when there is none. */
  #evictIdle(owner: string | undefined): boolean {
    for (const [id, session] of this.#sessions) {
      if (session.open > 0 || (owner !== undefined && session.owner !== owner)) continue;
      this.#close(id, session);
      return true;
    }
    return false;
  }

  #close(id: string, session: Session): void {
    this.delete(id);
    void session.transport.close();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen > this.#limits.idleMs) this.#close(id, session);
    }
  }
}
