import type { ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

type AnyServer = McpServer | Server;

/** Idle servers kept for the next POSTs; a burst past this many builds new ones, dropped after their request. */
const MAX_IDLE = 32;

/**
 * The endpoint's own default servers, for stateless POSTs: each serves one POST at a time on a
 * transport of its own (a stateless transport serves one request), is closed with that response
 * as an unpooled one is, and then waits for the next POST, so that a POST need not build a server
 * and attach the skills to it every time. Only the default server is pooled: it keeps nothing of
 * a request once closed, whereas an app's server may keep what it likes. A server whose response
 * did not finish (the client went away, or the handler failed) is closed and dropped.
 */
export class ServerPool {
  readonly #build: () => Promise<AnyServer>;
  readonly #idle: AnyServer[] = [];
  #closed = false;

  constructor(build: () => Promise<AnyServer>) {
    this.#build = build;
  }

  /** Run `answer` (connect a transport, handle the POST) on an idle server or a new one; close it with the response. */
  async serve(res: ServerResponse, answer: (server: AnyServer) => Promise<void>): Promise<void> {
    const server = this.#idle.pop() ?? (await this.#build());
    // Kept only when both the answer and the close went well.
    let waiting = 2;
    let keep = true;
    const settled = (ok: boolean) => {
      keep &&= ok;
      if (--waiting > 0) return;
      if (keep && !this.#closed && this.#idle.length < MAX_IDLE) this.#idle.push(server);
    };
    res.once('close', () => {
      const finished = res.writableFinished;
      // Closing aborts the handlers still running (a client that went away) and frees the server for another transport.
      server.close().then(
        () => settled(finished),
        () => settled(false),
      );
    });
    try {
      await answer(server);
      settled(true);
    } catch (error) {
      settled(false);
      throw error;
    }
  }

  /** Forget the idle servers (they hold no transport); servers still answering are dropped when they finish. */
  close(): void {
    this.#closed = true;
    this.#idle.length = 0;
  }
}
