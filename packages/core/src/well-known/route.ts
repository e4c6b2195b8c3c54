/**
 * The `/.well-known/agent-skills/` surface over HTTP: which requests it takes, and how each answer
 * is framed (status, ETag, conditional GET, HEAD, Cache-Control). The checks every request passes
 * first and the response budget are the endpoint's, handed in, so this surface gets the same ones
 * as the MCP route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import { SkillNotFoundError, SkillProtocolError } from '../errors.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.js';
import type { CacheHint, SkillContext } from '../types.js';
import { targetOf, type WellKnownAnswer, type WellKnownAnswers } from './answers.js';
import { WELL_KNOWN_PREFIX } from './rules.js';

export interface WellKnownRouteDeps {
  answers: WellKnownAnswers;
  /**
   * Run in the request's context before each answer: true when the app's server answers the
   * skills methods with handlers of its own, which this surface cannot ask. It then answers the one 404.
   */
  stepsAside?(): Promise<boolean>;
  /** The endpoint's first checks (Host/Origin, declared size): true when the request may go on, else it has been answered. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /** Run `work` in the request's context and under the endpoint's response budget, `size` measuring its answer. */
  within<T>(
    req: IncomingMessage,
    context: Record<string, unknown>,
    subject: string,
    work: (ctx: SkillContext) => Promise<T>,
    size: (answer: T) => number,
  ): Promise<T>;
}

/** The part of `url` after the surface's prefix (wherever the prefix starts: an adapter may be mounted under a path), or undefined. */
export function wellKnownPath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const at = path.indexOf(WELL_KNOWN_PREFIX);
  return at === -1 ? undefined : path.slice(at + WELL_KNOWN_PREFIX.length);
}

/**
 * Answer `req` when its path is under the prefix, and resolve true; resolve false (touching
 * nothing) for any other path. Everything the request may not see gets the same 404, byte for
 * byte, whether it is missing, hidden, another tenant's, malformed or left out of the index.
 */
export async function handleWellKnown(deps: WellKnownRouteDeps, req: IncomingMessage, res: ServerResponse, context: Record<string, unknown>): Promise<boolean> {
  const path = wellKnownPath(req.url);
  if (path === undefined) return false;
  if (!deps.admit(req, res)) return true;
  // A GET or HEAD body means nothing here: dropped (the declared size was checked above).
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, 'Method Not Allowed: this path answers GET and HEAD\n', { allow: 'GET, HEAD' });
    return true;
  }
  const target = targetOf(path);
  const wantsBody = (digest: string) => req.method !== 'HEAD' && !notModified(req, digest);
  if (!target) {
    notFound(res);
    return true;
  }
  let answer: WellKnownAnswer | undefined;
  try {
    answer = await deps.within(
      req,
      context,
      WELL_KNOWN_PREFIX + path,
      async (ctx) => ((await deps.stepsAside?.()) ? undefined : deps.answers.answer(target, ctx, wantsBody)),
      // The budget counts what will be written: a HEAD or a 304 writes no body.
      (a) => (a && wantsBody(a.digest) ? a.size : 0),
    );
  } catch (error) {
    // A file that vanished between the listing and the read is as missing as any other.
    if (error instanceof SkillNotFoundError) notFound(res);
    else if (error instanceof SkillProtocolError && error.code === JsonRpcErrorCode.ServerError) plain(res, 503, `${error.message}\n`, { 'retry-after': '1' });
    else throw error;
    return true;
  }
  if (!answer) notFound(res);
  else send(req, res, answer);
  return true;
}

function send(req: IncomingMessage, res: ServerResponse, answer: WellKnownAnswer): void {
  const headers: Record<string, string> = {
    etag: etagOf(answer.digest),
    'cache-control': cacheControl(answer.cacheHint),
    'x-content-type-options': 'nosniff',
  };
  if (notModified(req, answer.digest)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': answer.contentType, 'content-length': String(answer.size) });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

const etagOf = (digest: string) => `"${digest}"`;

/**
 * Whether `If-None-Match` names this digest, as an origin server evaluates it (RFC 9110, 13.1.2),
 * alone: a request's `Cache-Control: no-cache` (which fetch() adds to every conditional request)
 * is for caches on the way, and would otherwise make fresh() answer the whole body.
 */
function notModified(req: IncomingMessage, digest: string): boolean {
  const condition = req.headers['if-none-match'];
  return condition !== undefined && fresh({ 'if-none-match': condition }, { etag: etagOf(digest) });
}

/** The catalog's cache hint as HTTP freshness: a shared cache may keep only what is `public`. */
function cacheControl(hint: CacheHint): string {
  return `${hint.cacheScope}, max-age=${Math.floor(hint.ttlMs / 1000)}`;
}

function notFound(res: ServerResponse): void {
  plain(res, 404, 'Not Found: no skill is published at this path\n');
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}
