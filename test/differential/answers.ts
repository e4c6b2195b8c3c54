/**
 * One request sent to one target, and the parts of its answer a client depends on: the HTTP status,
 * the content type, whether a session id came back, and the JSON-RPC messages.
 */
import { type RawRequest, type RawResponse, send } from '../hostile/raw-http.ts';
import type { Target } from './targets.ts';

export interface Answer {
  /** The HTTP status, or how the exchange failed. */
  status: number | 'timeout' | 'failed';
  contentType?: string;
  /** An `Mcp-Session-Id` header was sent. */
  session?: boolean;
  /** The JSON-RPC messages (the JSON body, or every SSE `data:` line); the raw text when there are none. */
  messages?: unknown[];
  text?: string;
}

/**
 * Long enough for the slowest honest answer on a loaded machine: no POST the suite sends goes
 * unanswered by either side, so the bound is never waited out in a run that passes. 10 s was
 * not enough for the SDK's reference server with the machine's cores shared seven ways.
 */
const TIMEOUT_MS = 30_000;
/** A GET is either refused at once or opens a stream that stays open: no need to wait long to tell. */
const GET_TIMEOUT_MS = 1500;

export async function ask(target: Target, request: RawRequest): Promise<Answer> {
  const headers = target.sessionId ? { 'mcp-session-id': target.sessionId, ...request.headers } : request.headers;
  const timeout = request.method === 'GET' ? GET_TIMEOUT_MS : TIMEOUT_MS;
  return answerOf(await send(target.url, { ...request, ...(headers ? { headers } : {}) }, timeout));
}

function answerOf(response: RawResponse): Answer {
  if (response.kind === 'timeout') return { status: 'timeout' };
  if (response.kind === 'failed') return { status: 'failed' };
  const contentType = response.contentType;
  const messages = parsed(contentType, response.text);
  return {
    status: response.status,
    contentType,
    session: response.headers['mcp-session-id'] !== undefined,
    ...(messages ? { messages } : { text: response.text.slice(0, 2000) }),
  };
}

function parsed(contentType: string, text: string): unknown[] | undefined {
  try {
    if (contentType.startsWith('text/event-stream')) {
      const data = text.split('\n').filter((line) => line.startsWith('data:'));
      return data.length > 0 ? data.map((line) => JSON.parse(line.slice(5).trim())) : undefined;
    }
    if (contentType.startsWith('application/json') && text !== '') {
      const body: unknown = JSON.parse(text);
      return Array.isArray(body) ? body : [body];
    }
  } catch {
    return undefined;
  }
  return undefined;
}
