import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { escapeControls } from '@skillmount/core';

/** Longest excerpt of a server's error body a message quotes: enough for "Cannot POST /mcp", not a whole page. */
const EXCERPT_CHARS = 120;

/**
 * Why connecting to an MCP endpoint failed, for one line on a terminal. An HTTP error answer is
 * told by its status, with a short escaped excerpt of the body (an HTML error page reduced to its
 * text) and a hint for the usual mistake; other failures keep their message and name the cause.
 */
export function connectFailure(url: URL, error: unknown): string {
  if (error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code >= 400) {
    return `the server answered HTTP ${error.code}${excerpt(bodyOf(error.message))}; ${hintFor(error.code, url)}`;
  }
  // fetch's own message is "fetch failed"; the reason (refused, unknown host) is in its causes.
  const messages: string[] = [];
  let code: unknown;
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    messages.push(e.message);
    code ??= (e as { code?: unknown }).code;
  }
  const told = messages.length > 0 ? messages.join(': ') : String(error);
  const hint = code === 'ECONNREFUSED' ? `; nothing listens at ${url.host}: is the server running, on that port?` : '';
  return `${escapeControls(told)}${hint}`;
}

/** The SDK's message is `Streamable HTTP error: Error POSTing to endpoint: <body>`; the body is what the server sent. */
function bodyOf(message: string): string {
  const at = message.indexOf('endpoint: ');
  return at === -1 ? '' : message.slice(at + 'endpoint: '.length);
}

/**
 * ` (an HTML page reading "Error Cannot POST /mcp")`: the body's text, tags and excess whitespace left out (a framework's
 * error page is mostly markup), cut short, control characters escaped; empty when nothing is left.
 */
function excerpt(body: string): string {
  const looksLikeHtml = /^\s*</.test(body);
  const text = (looksLikeHtml ? body.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ') : body).replace(/\s+/g, ' ').trim();
  if (text === '') return '';
  const short = text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
  return ` (${looksLikeHtml ? 'an HTML page reading' : 'saying'} "${escapeControls(short)}")`;
}

function hintFor(status: number, url: URL): string {
  if (status === 401 || status === 403) return 'the server wants credentials: pass them with --header "Authorization: Bearer <token>"';
  if (status === 404 || status === 405) {
    return `no MCP endpoint answers at ${url.pathname}: check the URL's path (skillmount serve's endpoint is /mcp unless --path says otherwise)`;
  }
  return 'is this the URL of an MCP endpoint (Streamable HTTP)?';
}
