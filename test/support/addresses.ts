/**
 * Requests from a chosen loopback source address (127.0.0.2, 127.0.0.3, …: every 127/8 address is
 * local on Linux), so a test has several real clients with real remote addresses and no proxy.
 * `fetch` cannot pick its source address; node:http can.
 */
import { request } from 'node:http';
import { envelope, modernHeaders } from '../modern/support.js';

/** The `n`th test client address: 127.0.0.`n + 1` (0 is 127.0.0.1, the usual loopback). */
export const clientAddress = (n: number) => `127.0.0.${n + 1}`;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface From {
  /** Source address of the connection (e.g. `clientAddress(3)`); default the system's choice. */
  localAddress?: string;
  headers?: Record<string, string>;
}

/** POST `body` as JSON from `from.localAddress`, on a connection of its own, and read the whole answer. */
export function postFrom(url: string, body: unknown, from: From = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      ...(from.localAddress ? { localAddress: from.localAddress } : {}),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...from.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.end(JSON.stringify(body));
  });
}

export interface AddressedStream {
  status: number;
  /** Every message received so far (for a JSON answer, its one message). */
  frames: any[];
  /** Resolves when the stream ends, from either side. */
  ended: Promise<void>;
  /** Resolves once `count` frames have arrived; rejects when the stream ended first or after `ms`. */
  frame(count: number, ms?: number): Promise<any>;
  /** Close the connection from the client side. */
  close(): void;
}

/** Open `subscriptions/listen` (asking for `resourcesListChanged`) from `from.localAddress`, reading frames as they arrive. */
export function listenFrom(url: string, from: From = {}, id: string | number = 'listen:0'): Promise<AddressedStream> {
  const headers = { ...modernHeaders('subscriptions/listen'), ...from.headers };
  const body = { jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourcesListChanged: true }, _meta: envelope() } };
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      ...(from.localAddress ? { localAddress: from.localAddress } : {}),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const frames: any[] = [];
      const waiters = new Set<() => void>();
      const wake = () => {
        for (const w of [...waiters]) w();
      };
      let done = false;
      const ended = new Promise<void>((end) => {
        const finish = () => {
          done = true;
          wake();
          end();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      const sse = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        if (!sse) return;
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, cut)
            .split('\n')
            .find((line) => line.startsWith('data: '));
          buffer = buffer.slice(cut + 2);
          if (data) frames.push(JSON.parse(data.slice(6)));
        }
        wake();
      });
      res.on('end', () => {
        if (!sse && buffer) frames.push(JSON.parse(buffer));
        wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        frames,
        ended,
        frame: (count, ms = 20_000) =>
          new Promise((ok, fail) => {
            const check = () => {
              if (frames.length >= count) return settle(() => ok(frames[count - 1]));
              if (done) return settle(() => fail(new Error(`the stream ended after ${frames.length} frames, expected ${count}: ${JSON.stringify(frames)}`)));
            };
            const timer = setTimeout(() => settle(() => fail(new Error(`no frame ${count} within ${ms} ms; got ${JSON.stringify(frames)}`))), ms);
            const settle = (then: () => void) => {
              clearTimeout(timer);
              waiters.delete(check);
              then();
            };
            waiters.add(check);
            check();
          }),
        close: () => req.destroy(),
      });
    });
    req.end(JSON.stringify(body));
  });
}
