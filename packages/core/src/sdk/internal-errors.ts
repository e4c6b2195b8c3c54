import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SkillProtocolError, invalidParams } from '../errors.js';
import { INTERNAL_ERROR } from '../protocol/constants.js';
import type { SkillWarning } from '../types.js';
import { describeError } from '../text/error-text.js';
import { seamMissing, wrapHandlerLookups } from './seams.js';

const HIDDEN = Symbol.for('skillmount.hideInternalErrors');

/**
 * Keep the details of unexpected failures away from clients. The SDK sends any thrown error's
 * message as the JSON-RPC error message, so a storage or database error would show file paths,
 * hosts or SQL to whoever asked. With this, on every request handler of `server` (the app's own
 * and ones added later):
 * - errors that chose their JSON-RPC code (skillmount's `SkillProtocolError`, the SDK's `McpError`
 *   with any code but -32603) reach the client unchanged;
 * - a request that does not match the method's schema (the SDK's zod check) gets `-32602`;
 * - anything else gets `-32603` "Internal error …" with what the client can do, and the error
 *   itself goes to `onWarning` (code `internal-error`).
 *
 * It wraps lookups in the SDK's request handler map, which is not public API. On an SDK without
 * it, `onWarning` hears so once (code `sdk-seam-missing`) and this returns false: errors pass
 * unchanged, unless the caller also hides them on its transports (`hideInternalErrorsOn`).
 *
 * @example
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { consoleWarning } from '@skillmount/core';
 * import { hideInternalErrors } from '@skillmount/core/adapter';
 *
 * const server = new McpServer({ name: 'my-server', version: '1.0.0' });
 * if (!hideInternalErrors(server, consoleWarning)) console.warn('errors are hidden on the transport only');
 * ```
 * @throws Nothing: an SDK without the seam it wraps gives `false` and a warning.
 */
export function hideInternalErrors(server: McpServer | Server, onWarning: (warning: SkillWarning) => void): boolean {
  const held = wrapHandlerLookups(server, HIDDEN, (handler) => async (request, extra) => {
    try {
      return await handler(request, extra);
    } catch (error) {
      throw clientSafe(error, request.method, onWarning);
    }
  });
  if (!held) {
    seamMissing(
      onWarning,
      'request-handler-map',
      "errors thrown by request handlers are hidden only on skillmount's own endpoints, " +
        'where every -32603 becomes a plain "Internal error" and a request that fails the SDK\'s schema check also gets -32603 instead of -32602',
    );
  }
  return held;
}

/**
 * The fallback when `hideInternalErrors` could not take hold, through the transport's public
 * `send`: every `-32603` error the server sends on `transport` carries only a plain "Internal
 * error" message; the original goes to `onWarning` (code `internal-error`).
 */
export function hideInternalErrorsOn(transport: Transport, onWarning: (warning: SkillWarning) => void): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
    if (error?.code !== INTERNAL_ERROR) return send(message, options);
    onWarning({ code: 'internal-error', message: `a request failed; the client was told only "Internal error": ${String(error.message).slice(0, 2000)}` });
    const safe = {
      ...(message as object),
      error: {
        code: INTERNAL_ERROR,
        message:
          'Internal error: the server could not complete the request. Try again later; ' +
          "if it keeps failing, tell the server's operator (the cause is in the server's log).",
      },
    };
    return send(safe as JSONRPCMessage, options);
  };
}

/** The error a client may see for `error` thrown while handling `requested`; unexpected ones are reported to `onWarning`. */
export function clientSafe(error: unknown, requested: string, onWarning: (warning: SkillWarning) => void): unknown {
  const method = String(requested).slice(0, 100);
  const coded = error as { code?: unknown; name?: unknown; issues?: unknown } | null;
  // Branded: a SkillProtocolError from another copy of core passes too.
  if (error instanceof SkillProtocolError) return error;
  if (typeof coded?.code === 'number' && Number.isSafeInteger(coded.code) && coded.code !== INTERNAL_ERROR) return error;
  // zod 3 names it ZodError, zod 4 $ZodError.
  if (typeof coded?.name === 'string' && (coded.name === 'ZodError' || coded.name === '$ZodError') && Array.isArray(coded.issues)) {
    const issues = (coded.issues as { path?: unknown[]; message?: unknown }[])
      .slice(0, 3)
      .map((issue) => `${(issue.path ?? []).map(String).join('.') || '(request)'}: ${String(issue.message).slice(0, 120)}`);
    return invalidParams(`Invalid params for ${method}: ${issues.join('; ')}`);
  }
  onWarning({ code: 'internal-error', message: `${method} failed; the client was told only "Internal error": ${describeError(error, { name: true })}` });
  return new SkillProtocolError(
    INTERNAL_ERROR,
    `Internal error: the server could not complete ${method}. Try again later; ` +
      `if it keeps failing, tell the server's operator (the cause is in the server's log).`,
  );
}
