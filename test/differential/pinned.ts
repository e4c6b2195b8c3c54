/**
 * The differences between skillmount and its reference that are known and meant, each with why.
 * None is the fast path's: each is a check the endpoint or the framework makes before any answer
 * is chosen, or an SDK error skillmount words better. A pin explains a difference by saying what
 * skillmount's answer would be without it (most often: the reference's); what is left must be
 * equal. A run fails on a difference no pin explains, and on a pin that explained nothing (the
 * difference went away: remove the pin).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Answer } from './answers.ts';
import type { Framework } from '../hostile/servers.ts';
import type { DiffCase, Era } from './requests.ts';

/** One comparison run: an era, an adapter, stateless or with sessions. */
export interface Run {
  era: Era;
  framework: Framework;
  sessions: boolean;
  /** The reference's SDK takes any content type that contains the text "application/json" (1.29 does; 1.32 parses the media type). */
  jsonBySubstring: boolean;
}

export interface Pin {
  name: string;
  why: string;
  /** The runs where it must explain at least one difference. */
  occursIn(run: Run): boolean;
  /** skillmount's answer without this difference, or undefined when the pin does not apply to this case. */
  explain(c: DiffCase, ref: Answer, ours: Answer, run: Run): Answer | undefined;
}

/** The versions a 2025-era client may send in MCP-Protocol-Version (skillmount's LEGACY_VERSIONS). */
const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);

/** The one error of an answer that is a single JSON-RPC error. */
function errorOf(answer: Answer): { code: number; message: string } | undefined {
  const message = answer.messages?.length === 1 ? (answer.messages[0] as { error?: { code?: unknown; message?: unknown } }) : undefined;
  const error = message?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string' ? { code: error.code, message: error.message } : undefined;
}

/** `answer` refused with HTTP `status`, JSON-RPC `code` and a message matching `message`. */
function refused(answer: Answer, status: number, code: number, message: RegExp): boolean {
  const error = errorOf(answer);
  return answer.status === status && error?.code === code && message.test(error.message);
}

function header(c: DiffCase, name: string): string | undefined {
  return c.request.headers?.[name];
}

function parsedBody(c: DiffCase): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(String(c.request.body ?? '')) };
  } catch {
    return { ok: false };
  }
}

const legacy = (run: Run) => run.era === '2025-11-25';

export const PINS: readonly Pin[] = [
  {
    name: 'Host and Origin outside allowedHosts',
    why: 'DNS-rebinding protection: the endpoint refuses them with 403 before anything else; a plain SDK server has that check off unless the app turns it on',
    occursIn: legacy,
    explain: (c, ref, ours) =>
      (header(c, 'host') !== undefined || header(c, 'origin') !== undefined) && refused(ours, 403, -32000, /^Forbidden: (Host|Origin) /) ? ref : undefined,
  },
  {
    name: 'body over 1 MiB',
    why: "the endpoint's bodyLimit (1 MiB by default) is checked before the body is parsed; the SDK's transport takes up to 4 MiB",
    occursIn: legacy,
    explain: (_c, ref, ours) =>
      refused(ours, 413, -32000, /^Payload Too Large: the request body is over the \d+-byte limit of this endpoint/) ? ref : undefined,
  },
  {
    name: 'JSON-RPC batches',
    why: 'the endpoint refuses an empty batch, a batch on a protocol version without batches (after 2025-03-26) and one over 32 messages; the SDK runs batches of up to 100',
    occursIn: legacy,
    explain: (c, ref, ours) => {
      const body = parsedBody(c);
      return body.ok && Array.isArray(body.value) && refused(ours, 400, -32600, /^Invalid Request: (the batch|protocol version)/) ? ref : undefined;
    },
  },
  {
    name: 'a body that is not JSON',
    why: 'the endpoint (or Fastify) parses the body before the transport sees the request, to route skills requests, and words its own parse error; it answers that before the Accept check',
    occursIn: legacy,
    explain: (c, ref, ours) => (!parsedBody(c).ok && refused(ours, 400, -32700, /^Parse error: /) ? ref : undefined),
  },
  {
    name: 'Fastify: __proto__ and constructor keys',
    why: "Fastify's JSON parser refuses prototype poisoning (the app's onProtoPoisoning / onConstructorPoisoning, 'error' by default) before the route runs",
    occursIn: (run) => legacy(run) && run.framework === 'fastify',
    explain: (c, ref, ours, run) =>
      run.framework === 'fastify' && /"(__proto__|constructor)"\s*:/.test(String(c.request.body ?? '')) && refused(ours, 400, -32700, /^Parse error: /)
        ? ref
        : undefined,
  },
  {
    name: "Fastify's charset",
    why: 'Fastify adds "; charset=utf-8" to the content type of the JSON answers it sends itself (the refusals before the endpoint runs)',
    occursIn: (run) => legacy(run) && run.framework === 'fastify',
    explain: (_c, ref, ours, run) =>
      run.framework === 'fastify' && ours.contentType === 'application/json; charset=utf-8' && ref.contentType === 'application/json'
        ? { ...ours, contentType: ref.contentType }
        : undefined,
  },
  {
    name: 'params the SDK schemas refuse',
    why: "skillmount's servers answer them with -32602 naming the param (hideInternalErrors); a plain SDK server answers -32603 with zod's list of issues",
    occursIn: legacy,
    explain: (_c, ref, ours) => {
      const theirs = errorOf(ref);
      const mine = errorOf(ours);
      const swapped =
        theirs?.code === -32603 && theirs.message.startsWith('[') && mine?.code === -32602 && /^Invalid params for [^:]+: params\./.test(mine.message);
      return swapped ? { ...ours, messages: ref.messages! } : undefined;
    },
  },
  {
    name: 'an MCP-Protocol-Version no 2025 client sends',
    why:
      'the endpoint serves both eras and takes any version it does not know as 2026-07-28, whose checks refuse a request without its envelope ' +
      '(a notification gets 202); the SDK v1 refuses the version with 400',
    occursIn: legacy,
    explain: (c, ref, ours) => {
      const version = header(c, 'mcp-protocol-version');
      const modernRefusal = ours.status === 202 || ((ours.status === 400 || ours.status === 415) && errorOf(ours) !== undefined);
      return version !== undefined && !LEGACY_VERSIONS.has(version.trim()) && modernRefusal ? ref : undefined;
    },
  },
  {
    name: 'content types that only contain "application/json"',
    why:
      'the endpoint refuses a content type whose media type is not application/json (application/jsonx, text/html; a=application/json) with 415; ' +
      'older SDK releases take any that contains the text',
    occursIn: (run) => legacy(run) && run.jsonBySubstring,
    explain: (c, ref, ours, run) => {
      const type = header(c, 'content-type') ?? '';
      const notJson = type.includes('application/json') && type.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json';
      return run.jsonBySubstring && notJson && refused(ours, 415, -32000, /^Unsupported Media Type/) ? ref : undefined;
    },
  },
  {
    name: 'Content-Type before Accept',
    why: "the endpoint refuses a content type that is not JSON (415) before the transport's Accept check (406) runs",
    occursIn: legacy,
    explain: (_c, ref, ours) => (ref.status === 406 && refused(ours, 415, -32000, /^Unsupported Media Type/) ? ref : undefined),
  },
  {
    name: 'GET and DELETE without sessions',
    why: 'stateless, the endpoint answers them 405 (no stream to open, no session to end); the SDK stateless transport opens a GET stream that stays open and takes a DELETE',
    occursIn: (run) => legacy(run) && !run.sessions,
    explain: (c, ref, ours, run) =>
      !run.sessions && (c.request.method === 'GET' || c.request.method === 'DELETE') && refused(ours, 405, -32000, /^Method not allowed/) ? ref : undefined,
  },
  {
    name: 'PUT and PATCH',
    why: "the adapters route GET, POST and DELETE only, so the framework answers 404; the SDK's transport answers 405",
    occursIn: legacy,
    explain: (c, ref, ours) => ((c.request.method === 'PUT' || c.request.method === 'PATCH') && ours.status === 404 ? ref : undefined),
  },
];

/** How one case came out: equal, explained by pins, or a difference nothing explains. */
export type Verdict = { kind: 'equal' } | { kind: 'pinned'; pins: string[] } | { kind: 'new'; pins: string[] };

export function judge(c: DiffCase, ref: Answer, ours: Answer, run: Run): Verdict {
  // skillmount answers every request, whatever the reference does: two requests left hanging alike are no agreement.
  if (typeof ours.status !== 'number') return { kind: 'new', pins: [] };
  if (isDeepStrictEqual(ref, ours)) return { kind: 'equal' };
  let explained = ours;
  const pins: string[] = [];
  for (const pin of PINS) {
    if (!pin.occursIn(run)) continue;
    const without = pin.explain(c, ref, explained, run);
    if (without === undefined || isDeepStrictEqual(without, explained)) continue;
    explained = without;
    pins.push(pin.name);
  }
  return isDeepStrictEqual(ref, explained) ? { kind: 'pinned', pins } : { kind: 'new', pins };
}
