import http from 'node:http';

export interface RawRequest {
  method?: string;
  /** Sent as given; `host` replaces the default one. A value of undefined drops that header. */
  headers?: Record<string, string | undefined>;
  body?: string | Buffer;
  /** Send the body in pieces without Content-Length (chunked transfer encoding). */
  chunked?: boolean;
  /** Declare this Content-Length but send only `body`, then wait for the answer. */
  declaredLength?: number;
}

export type RawResponse =
  | { kind: 'response'; status: number; contentType: string; text: string; headers: http.IncomingHttpHeaders }
  | { kind: 'timeout' }
  | { kind: 'failed'; error: string };

const DEFAULT_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** Keep at most this much of an answer; a leak scan needs no more. */
const KEEP = 8 * 1024 * 1024;

/** One HTTP request on a fresh connection, with full control over headers and body framing. */
export function send(url: string, request: RawRequest, timeoutMs = 5000): Promise<RawResponse> {
  const target = new URL(url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...DEFAULT_HEADERS, ...request.headers })) if (value !== undefined) headers[name] = value;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  if (request.declaredLength !== undefined) headers['content-length'] = String(request.declaredLength);
  else if (body && !request.chunked) headers['content-length'] = String(body.length);

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: request.method ?? 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < KEEP) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', (error) => finish({ kind: 'failed', error: String(error) }));
      },
    );
    // Once the server has answered, an upload it cut short is expected to fail.
    req.on('error', (error) => setTimeout(() => finish({ kind: 'failed', error: String(error) }), 200));
    if (body && request.chunked) {
      const piece = 64 * 1024;
      for (let i = 0; i < body.length; i += piece) req.write(body.subarray(i, i + piece));
      req.end();
    } else if (request.declaredLength !== undefined) {
      if (body) req.write(body);
      // Never end: the server must answer without the rest.
    } else {
      req.end(body);
    }
  });
}

/** The JSON-RPC messages of an answer: the JSON body, or every `data:` line of an event stream. */
export function jsonRpcMessages(response: Extract<RawResponse, { kind: 'response' }>): unknown[] | undefined {
  try {
    if (response.contentType.startsWith('text/event-stream')) {
      return response.text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .filter((data) => data !== '')
        .map((data) => JSON.parse(data));
    }
    if (response.contentType.startsWith('application/json')) {
      const parsed = JSON.parse(response.text);
      return Array.isArray(parsed) ? parsed : [parsed];
    }
  } catch {
    return undefined;
  }
  return undefined;
}
