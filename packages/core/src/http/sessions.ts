import type { ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ClientCounts } from '../context/client-key.js';
import type { HttpRefusal } from './types.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';

export interface SessionLimits {
  /** Close a session with no request for this long. */
  idleMs: number;
  /** Sessions open at once, across all clients. */
  max: number;
  /** Sessions one client (see `clientKey`) may hold at once. */
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
 * The open MCP sessions of an endpoint. At a cap, a new session takes the place of an *idle* one
 * (no request in flight, no open event stream), least recently used first:
 * - at the per-client cap, one of the same client's, so a burst from one client churns only its own;
 * - at the global cap, one of the client holding the most sessions, and never one of a client
 *   holding fewer than the newcomer would: clients from many addresses (or many client ids) can
 *   only take slots from each other, not from a client with a few established sessions. When every
 *   session of the biggest holder is busy, the next biggest that still holds at least as many as
 *   the newcomer would gives way, then the newcomer's own idle sessions.
 * Only when no such idle session is left is the new one refused: 429 at the per-client cap, 503 at the global one.
 */
export class SessionTable {
  readonly #limits: SessionLimits;
  /** Least recently used first. */
  readonly #sessions = new Map<string, Session>();
  readonly #perOwner = new ClientCounts();
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
    if (this.#perOwner.of(owner) >= maxPerClient && !this.#evictIdle(owner)) {
      return {
        status: 429,
        code: JsonRpcErrorCode.ServerError,
        message: `Too many sessions: this client already has ${maxPerClient} sessions, all busy; close one (DELETE with its Mcp-Session-Id) or try again later`,
      };
    }
    if (this.#sessions.size + this.#pending >= max && !this.#evictForNewcomer(owner)) {
      return {
        status: 503,
        code: JsonRpcErrorCode.ServerError,
        message: `Too many open sessions: all ${max} are busy or held by clients with no more sessions than this one; try again later`,
      };
    }
    this.#pending++;
    this.#perOwner.add(owner);
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
        this.#perOwner.remove(owner);
      },
    };
  }

  /** Forget a session (its transport closed). */
  delete(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#perOwner.remove(session.owner);
  }

  /** Close every session. */
  async closeAll(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#perOwner.clear();
    await Promise.allSettled(open.map((s) => s.transport.close()));
  }

  /** Close the least recently used idle session of `owner`; false when it has none. */
  #evictIdle(owner: string): boolean {
    for (const [id, session] of this.#sessions) {
      if (session.open > 0 || session.owner !== owner) continue;
      this.#close(id, session);
      return true;
    }
    return false;
  }

  /**
   * At the global cap, make room for a session of `owner`: close the least recently used idle
   * session of the client holding the most sessions, among clients holding at least as many as
   * `owner` would with the new one; failing that, `owner`'s own least recently used idle session.
   * False when there is none.
   */
  #evictForNewcomer(owner: string): boolean {
    const wouldHold = this.#perOwner.of(owner) + 1;
    let victim: [string, Session] | undefined;
    let most = 0;
    let own: [string, Session] | undefined;
    // Least recently used first, so among equal holders the oldest idle session goes.
    for (const entry of this.#sessions) {
      const session = entry[1];
      if (session.open > 0) continue;
      if (session.owner === owner) {
        own ??= entry;
        continue;
      }
      const held = this.#perOwner.of(session.owner);
      if (held >= wouldHold && held > most) {
        victim = entry;
        most = held;
      }
    }
    const chosen = victim ?? own;
    if (!chosen) return false;
    this.#close(...chosen);
    return true;
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
